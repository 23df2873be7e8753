(* NBD.close while a call is running on the handle (from one of its
   callbacks, or from another thread) does not free the handle under
   that call: the handle refuses new calls at once, and is really
   closed (socket shut, nbdkit reaped) when the last call returns. *)
open Common

let data = Bytes.init 512 (fun i -> Char.chr ((i * 5 + 1) land 255))

(* The handle's nbdkit has been reaped: the handle is really closed. *)
let check_reaped what pid =
  let pid = Int64.to_int pid in
  match Unix.kill pid 0 with
  | () -> fail "%s: nbdkit %d still running after the close" what pid
  | exception Unix.Unix_error (Unix.ESRCH, _, _) -> ()

let check_closed what nbd =
  match NBD.get_size nbd with
  | _ -> fail "%s: the handle still works after NBD.close" what
  | exception NBD.Closed _ -> ()

(* A completion callback closes its own handle, from NBD.poll. *)
let completion_closes () =
  let nbd = connected [ "memory"; "1M" ] in
  let pid = NBD.get_subprocess_pid nbd in
  let calls = ref 0 in
  let buf = NBD.Buffer.alloc 512 in
  ignore (NBD.aio_pread nbd buf 0L
            ~completion:(fun err ->
              check (!err = 0) "completion: error %d" !err;
              incr calls; NBD.close nbd; 1));
  (* The poll that runs the callback returns; the next call finds the
     handle closed. *)
  let rec loop n =
    if n = 0 then fail "completion: never closed";
    match NBD.poll nbd 1000 with
    | _ -> loop (n - 1)
    | exception NBD.Closed _ -> () in
  loop 100;
  check (!calls = 1) "completion: called %d times" !calls;
  check_reaped "completion" pid

(* A chunk callback closes its handle during a synchronous call, which
   still returns its data. *)
let chunk_closes () =
  let nbd = connected [ "memory"; "1M" ] in
  NBD.pwrite nbd data 0L;
  let pid = NBD.get_subprocess_pid nbd in
  let buf = Bytes.create 512 in
  NBD.pread_structured nbd buf 0L (fun _ _ _ _ -> NBD.close nbd; 0);
  check (Bytes.equal buf data) "chunk: pread_structured data";
  check_closed "chunk" nbd;
  check_reaped "chunk" pid

(* Another thread closes the handle while this one waits in NBD.pread
   (the delay filter holds the reply back): the read completes. *)
let thread_closes () =
  let nbd = connected [ "--filter=delay"; "memory"; "1M"; "rdelay=1" ] in
  NBD.pwrite nbd data 0L;
  let pid = NBD.get_subprocess_pid nbd in
  let result = ref None in
  let reader () =
    let buf = Bytes.create 512 in
    result := Some (try NBD.pread nbd buf 0L; Ok buf with e -> Error e) in
  let sent = NBD.stats_chunks_sent nbd in
  let t = Thread.create reader () in
  (* The reader is inside its call once its read has left (a call that
     skips the lock can tell, while the reader holds it; aio_in_flight
     does not count another thread's synchronous call, as in 1.22). *)
  while NBD.stats_chunks_sent nbd = sent do Thread.delay 0.01 done;
  NBD.close nbd;
  check_closed "thread" nbd;
  Thread.join t;
  (match !result with
   | Some (Ok buf) -> check (Bytes.equal buf data) "thread: pread data"
   | Some (Error e) -> fail "thread: pread raised %s" (Printexc.to_string e)
   | None -> fail "thread: reader did not finish");
  check_reaped "thread" pid

(* Closing a handle with a command in flight runs its completion with
   an error; the completion may close the handle again and call it. *)
let close_runs_completion () =
  let nbd = connected [ "--filter=delay"; "memory"; "1M"; "rdelay=10" ] in
  let errs = ref [] and closed = ref false in
  ignore (NBD.aio_pread nbd (NBD.Buffer.alloc 512) 0L
            ~completion:(fun err ->
              errs := !err :: !errs;
              NBD.close nbd;
              (try ignore (NBD.aio_in_flight nbd)
               with NBD.Closed _ -> closed := true);
              1));
  NBD.close nbd;
  (match !errs with
   | [ e ] -> check (e <> 0) "close: completion without an error"
   | l -> fail "close: completion called %d times" (List.length l));
  check !closed "close: the completion's call did not raise Closed"

let () =
  completion_closes ();
  chunk_closes ();
  thread_closes ();
  close_runs_completion ();
  print_endline "close under a call: ok"
