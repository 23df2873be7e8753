(* aio with NBD.Buffer and completion closures. *)
open Common

let wait nbd cookie =
  while not (NBD.aio_command_completed nbd cookie) do
    ignore (NBD.poll nbd 1000)
  done

let () =
  let nbd = connected [ "memory"; "1M" ] in
  let data = Bytes.init 8192 (fun i -> Char.chr ((i * 7) land 255)) in
  let wbuf = NBD.Buffer.of_bytes data in
  check (NBD.Buffer.size wbuf = 8192) "Buffer.size";
  check (Bytes.equal (NBD.Buffer.to_bytes wbuf) data) "Buffer round trip";
  check (NBD.Buffer.to_string wbuf = Bytes.to_string data) "to_string";
  let written = ref 0 in
  let c = NBD.aio_pwrite nbd wbuf 0L ~flags:[ NBD.CMD_FLAG.FUA ]
            ~completion:(fun err -> check (!err = 0) "write error";
                                    incr written; 1) in
  check (Int64.compare c 0L > 0) "cookie";
  (* Returning 1 from the completion retires the command at once. *)
  while !written = 0 do ignore (NBD.poll nbd 1000) done;
  check (NBD.aio_in_flight nbd = 0) "retired by the completion";
  (* Without a completion: aio_command_completed retires it. *)
  let rbuf = NBD.Buffer.alloc 8192 in
  let c = NBD.aio_pread nbd rbuf 0L in
  check (NBD.aio_peek_command_completed nbd = 0L
         || NBD.aio_peek_command_completed nbd = c) "peek";
  wait nbd c;
  check (NBD.Buffer.to_bytes rbuf = data) "aio_pread data";
  (* Many in flight at once, each with its own buffer and closure. *)
  let n = 16 in
  let done_ = Array.make n false in
  let bufs = Array.init n (fun _ -> NBD.Buffer.alloc 512) in
  Array.iteri (fun i b ->
    ignore (NBD.aio_pread nbd b (Int64.of_int (512 * i))
              ~completion:(fun err ->
                check (!err = 0) "read %d" i;
                done_.(i) <- true; 1))) bufs;
  while NBD.aio_in_flight nbd > 0 do ignore (NBD.poll nbd 1000) done;
  check (Array.for_all Fun.id done_) "all completions ran";
  Array.iteri (fun i b ->
    check (NBD.Buffer.to_bytes b = Bytes.sub data (512 * i) 512)
      "buffer %d" i) bufs;
  (* aio_pread_structured: chunk callback and completion. *)
  let chunks = ref 0 and completed = ref false in
  let sbuf = NBD.Buffer.alloc 4096 in
  ignore (NBD.aio_pread_structured nbd sbuf 0L
            (fun sub _ _ _ -> chunks := !chunks + Bytes.length sub; 0)
            ~completion:(fun _ -> completed := true; 1));
  while not !completed do ignore (NBD.poll nbd 1000) done;
  check (!chunks = 4096) "chunk bytes %d" !chunks;
  (* A completion sees the command's error: a read past the end. *)
  let err_seen = ref (-1) in
  (match NBD.aio_pread nbd (NBD.Buffer.alloc 512) 1048576L
           ~completion:(fun err -> err_seen := !err; 1) with
   | _ -> fail "aio_pread past the end was queued"
   | exception NBD.Error (_, Some Unix.EINVAL) -> ()
   | exception NBD.Error (m, _) -> fail "aio_pread past the end: %s" m);
  check (!err_seen = -1) "refused command's completion did not run";
  (* aio_flush, aio_zero with cookies. *)
  let c = NBD.aio_zero nbd 512L 0L in
  wait nbd c;
  let c = NBD.aio_flush nbd in
  wait nbd c;
  let c = NBD.aio_pread nbd rbuf 0L in
  wait nbd c;
  check (Bytes.sub (NBD.Buffer.to_bytes rbuf) 0 512 = Bytes.make 512 '\000')
    "aio_zero";
  NBD.close nbd;
  (* A buffer the program dropped stays alive while its command is in
     flight (the server delays the read), and is collected after. *)
  let nbd = connected [ "--filter=delay"; "memory"; "1M"; "rdelay=500ms" ] in
  let freed = ref false in
  let start () =
    let buf = NBD.Buffer.alloc 65536 in
    Gc.finalise (fun _ -> freed := true) buf;
    NBD.aio_pread nbd buf 0L in
  let c = start () in
  Gc.full_major ();
  Gc.full_major ();
  check (not !freed) "buffer collected while its read was in flight";
  check (NBD.aio_in_flight nbd = 1) "read in flight";
  wait nbd c;
  Gc.full_major ();
  Gc.full_major ();
  check !freed "buffer not collected after its read retired";
  NBD.close nbd
