(* common.ml: what the tests of the OCaml bindings share: starting
   nbdkit, and failing loudly. *)

let fail fmt =
  Printf.ksprintf (fun s ->
    prerr_endline (Sys.executable_name ^ ": FAIL: " ^ s);
    exit 1) fmt

let check cond fmt =
  Printf.ksprintf (fun s -> if not cond then fail "%s" s) fmt

(* nbdkit on stdin/stdout of a subprocess of the handle. *)
let nbdkit args = "nbdkit" :: "-s" :: "--exit-with-parent" :: args

(* A handle connected to nbdkit [args] by connect_command. *)
let connected args =
  let nbd = NBD.create () in
  NBD.connect_command nbd (nbdkit args);
  nbd

(* nbdkit [args] on a Unix socket of a fresh directory; [f] gets the
   socket's path once nbdkit listens: it writes its pid file after
   listen (the socket's file exists from bind, before, when a connect
   is refused).  The server is killed and the directory removed
   whatever [f] does. *)
let with_unix_server args f =
  let dir = Filename.concat (Filename.get_temp_dir_name ())
              (Printf.sprintf "ocaml-nbd-%d-%d" (Unix.getpid ())
                 (Random.bits ())) in
  Unix.mkdir dir 0o700;
  let sock = Filename.concat dir "sock" in
  let pidfile = Filename.concat dir "pid" in
  let pid =
    Unix.create_process "nbdkit"
      (Array.of_list ("nbdkit" :: "-f" :: "--exit-with-parent"
                      :: "-U" :: sock :: "-P" :: pidfile :: args))
      Unix.stdin Unix.stdout Unix.stderr in
  let cleanup () =
    (try Unix.kill pid Sys.sigterm with Unix.Unix_error _ -> ());
    (try ignore (Unix.waitpid [] pid) with Unix.Unix_error _ -> ());
    (try Sys.remove sock with Sys_error _ -> ());
    (try Sys.remove pidfile with Sys_error _ -> ());
    (try Unix.rmdir dir with Unix.Unix_error _ -> ()) in
  let rec wait n =
    if not (Sys.file_exists pidfile) then (
      if n = 0 then (cleanup (); fail "nbdkit did not start");
      Unix.sleepf 0.05;
      wait (n - 1)
    ) in
  wait 200;
  match f sock with
  | r -> cleanup (); r
  | exception e -> cleanup (); raise e

(* Run [f], which must raise NBD.Error with [errno]; return the
   message. *)
let expect_error ?errno what f =
  match f () with
  | _ -> fail "%s: succeeded, expected NBD.Error" what
  | exception NBD.Error (msg, err) ->
     (match errno, err with
      | None, _ -> ()
      | Some e, Some e' when e = e' -> ()
      | Some e, _ ->
         fail "%s: expected errno %s, got %s (%s)" what
           (Unix.error_message e)
           (match err with None -> "none" | Some e -> Unix.error_message e)
           msg);
     msg
