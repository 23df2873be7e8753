(* block_status (32-bit entries) and block_status_64 (extent array). *)
open Common

let () =
  let nbd = NBD.create () in
  NBD.add_meta_context nbd NBD.context_base_allocation;
  NBD.connect_command nbd (nbdkit [ "memory"; "1M" ]);
  (* Data in the first 64K, a hole after. *)
  NBD.pwrite nbd (Bytes.make 65536 'x') 0L;
  let entries32 = ref [||] in
  NBD.block_status nbd 1048576L 0L (fun ctx off entries err ->
    check (ctx = NBD.context_base_allocation) "context %s" ctx;
    check (off = 0L) "offset";
    check (!err = 0) "error";
    entries32 := entries;
    0);
  let e = !entries32 in
  check (Array.length e >= 4 && Array.length e mod 2 = 0) "entries";
  check (e.(0) = 65536L && e.(1) = 0L) "first extent: data";
  check (Int64.logand e.(3) (Int64.of_int32 NBD.state_hole) <> 0L)
    "second extent: hole";
  let entries64 = ref [||] in
  NBD.block_status_64 nbd 1048576L 0L (fun ctx _ entries _ ->
    check (ctx = NBD.context_base_allocation) "context %s" ctx;
    entries64 := entries;
    0);
  let e64 = !entries64 in
  check (Array.length e64 >= 2) "64-bit entries";
  check (e64.(0) = (65536L, 0L)) "first 64-bit extent";
  check (Int64.add (fst e64.(0)) (fst e64.(1)) <= 1048576L) "lengths";
  check (Int64.logand (snd e64.(1)) (Int64.of_int32 NBD.state_zero) <> 0L)
    "second 64-bit extent reads as zero";
  (* REQ_ONE: one extent only. *)
  NBD.block_status_64 nbd 1048576L 0L ~flags:[ NBD.CMD_FLAG.REQ_ONE ]
    (fun _ _ entries _ ->
      check (Array.length entries = 1) "REQ_ONE";
      0);
  NBD.close nbd
