(* An exception raised in a callback fails that command (libnbd 1.22
   prints it and returns -1 from the callback); the handle goes on. *)
open Common

exception Mine

let () =
  let nbd = NBD.create () in
  NBD.add_meta_context nbd NBD.context_base_allocation;
  NBD.connect_command nbd (nbdkit [ "memory"; "1M" ]);
  (* A chunk callback raising: pread_structured fails. *)
  let called = ref false in
  (match NBD.pread_structured nbd (Bytes.create 512) 0L
           (fun _ _ _ _ -> called := true; raise Mine) with
   | () -> fail "pread_structured succeeded though its callback raised"
   | exception NBD.Error _ -> check !called "chunk callback not called");
  (* An extent callback raising: block_status fails. *)
  let called = ref false in
  (match NBD.block_status_64 nbd 1048576L 0L
           (fun _ _ _ _ -> called := true; raise Mine) with
   | () -> fail "block_status_64 succeeded though its callback raised"
   | exception NBD.Error _ -> check !called "extent callback not called");
  (* A completion raising: the command still retires. *)
  let buf = NBD.Buffer.alloc 512 in
  let c = NBD.aio_pread nbd buf 0L ~completion:(fun _ -> raise Mine) in
  while NBD.aio_in_flight nbd > 0 && not (NBD.aio_command_completed nbd c) do
    ignore (NBD.poll nbd 1000)
  done;
  (* A list callback raising: opt mode keeps going. *)
  let nbd2 = NBD.create () in
  NBD.set_opt_mode nbd2 true;
  NBD.connect_command nbd2 (nbdkit [ "memory"; "1M" ]);
  (try ignore (NBD.opt_list nbd2 (fun _ _ -> raise Mine))
   with NBD.Error _ -> ());
  NBD.opt_go nbd2;
  check (NBD.get_size nbd2 = 1048576L) "opt_go after a raising callback";
  NBD.close nbd2;
  (* The handle still works. *)
  NBD.pread nbd (Bytes.create 512) 0L;
  NBD.close nbd
