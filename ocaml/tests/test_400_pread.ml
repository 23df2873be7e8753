(* pread, pread_structured and pwrite, with flags. *)
open Common

let () =
  let nbd = connected [ "pattern"; "1M" ] in
  (* The pattern plugin: each 8 bytes hold their offset, big-endian. *)
  let buf = Bytes.create 512 in
  NBD.pread nbd buf 8192L;
  for i = 0 to 63 do
    check (Bytes.get_int64_be buf (8 * i) = Int64.of_int (8192 + 8 * i))
      "pread byte %d" (8 * i)
  done;
  let chunks = ref 0 and seen = Bytes.make 512 '\000' in
  NBD.pread_structured nbd buf 16384L (fun sub off status err ->
    incr chunks;
    check (!err = 0) "chunk error";
    check (status = Int32.to_int NBD.read_data) "chunk status";
    Bytes.blit sub 0 seen (Int64.to_int off - 16384) (Bytes.length sub);
    0);
  check (!chunks >= 1) "chunks";
  check (Bytes.equal seen buf) "chunk data is the read data";
  check (Bytes.get_int64_be buf 0 = 16384L) "pread_structured data";
  (* A chunk callback that fails the command with an errno. *)
  let msg = expect_error ~errno:Unix.EPERM "chunk -1" (fun () ->
    NBD.pread_structured nbd buf 0L (fun _ _ _ err ->
      err := NBD.errno_of_unix_error Unix.EPERM; -1)) in
  ignore msg;
  NBD.close nbd;
  let nbd = connected [ "memory"; "1M" ] in
  let data = Bytes.init 4096 (fun i -> Char.chr (i land 255)) in
  NBD.pwrite nbd data 4096L ~flags:[ NBD.CMD_FLAG.FUA ];
  let back = Bytes.create 4096 in
  NBD.pread nbd back 4096L;
  check (Bytes.equal data back) "pwrite round trip";
  NBD.flush nbd;
  NBD.zero nbd 4096L 4096L;
  NBD.pread nbd back 4096L;
  check (Bytes.for_all (fun c -> c = '\000') back) "zero";
  (* Out of bounds. *)
  ignore (expect_error ~errno:Unix.EINVAL "read past the end" (fun () ->
    NBD.pread nbd back 1048576L));
  NBD.close nbd
