(* What a callback may call on its own handle (libnbd-ocaml(3)): a call
   that takes the handle's lock, which the running call holds, raises
   NBD.Error with EDEADLK instead of deadlocking; the calls that skip
   the lock work, and so do calls on other handles.  Another thread's
   call on a busy handle just waits its turn. *)
open Common

let deadlock what f =
  match f () with
  | _ -> fail "%s: a locked call on its own handle succeeded" what
  | exception NBD.Error (msg, Some Unix.EDEADLK) ->
     check (String.length msg > 0) "%s: empty message" what;
     msg
  | exception e -> fail "%s: raised %s" what (Printexc.to_string e)

let () =
  (* Before the fix these deadlocked: fail instead of hanging. *)
  ignore (Unix.alarm 60);
  let nbd = connected [ "memory"; "1M" ] in
  let other = connected [ "memory"; "2M" ] in
  let msgs = ref [] and in_flight = ref (-1) and other_size = ref 0L in
  let buf = NBD.Buffer.alloc 512 in
  let c = NBD.aio_pread nbd buf 0L
            ~completion:(fun _ ->
              msgs := deadlock "completion" (fun () -> NBD.get_size nbd)
                      :: !msgs;
              in_flight := NBD.aio_in_flight nbd;
              other_size := NBD.get_size other;
              0) in
  while not (NBD.aio_command_completed nbd c) do
    ignore (NBD.poll nbd 1000)
  done;
  check (!msgs <> []) "completion not called";
  print_endline (List.hd !msgs);
  check (!in_flight >= 0) "aio_in_flight in a completion";
  check (!other_size = 2097152L) "another handle in a completion";
  (* The same from a chunk callback of a synchronous call. *)
  let msg = ref "" in
  NBD.pread_structured nbd (Bytes.create 512) 0L
    (fun _ _ _ _ ->
      msg := deadlock "chunk" (fun () -> NBD.pread nbd (Bytes.create 1) 0L);
      0);
  check (!msg <> "") "chunk callback not called";
  (* The handle works after all that. *)
  check (NBD.get_size nbd = 1048576L) "get_size after the callbacks";
  NBD.close nbd;
  NBD.close other;
  (* Two threads on one handle: the second waits, it is no deadlock. *)
  let nbd = connected [ "--filter=delay"; "memory"; "1M"; "rdelay=1" ] in
  let sent = NBD.stats_chunks_sent nbd in
  let t = Thread.create (fun () -> NBD.pread nbd (Bytes.create 512) 0L) () in
  (* Its read has left (aio_in_flight does not count another thread's
     synchronous call, as in libnbd 1.22). *)
  while NBD.stats_chunks_sent nbd = sent do Thread.delay 0.01 done;
  check (NBD.get_size nbd = 1048576L) "get_size from a second thread";
  Thread.join t;
  NBD.close nbd
