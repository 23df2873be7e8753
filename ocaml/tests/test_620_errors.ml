(* Errors: NBD.Error with the message and the Unix.error of the errno;
   NBD.Closed after close; Invalid_argument for what C cannot take. *)
open Common

let prefix p s = String.length s >= String.length p
                 && String.sub s 0 (String.length p) = p

let () =
  let nbd = NBD.create () in
  let msg = expect_error ~errno:Unix.ENOTCONN "pread unconnected" (fun () ->
    NBD.pread nbd (Bytes.create 512) 0L) in
  check (prefix "nbd_pread: " msg) "message %S" msg;
  let msg = expect_error ~errno:Unix.EINVAL "bad flag" (fun () ->
    NBD.set_handshake_flags nbd [ NBD.HANDSHAKE_FLAG.UNKNOWN 8 ]) in
  check (prefix "nbd_set_handshake_flags: " msg) "message %S" msg;
  ignore (expect_error ~errno:Unix.ENOENT "missing socket" (fun () ->
    NBD.connect_unix nbd "/nonexistent/socket"));
  (match NBD.connect_vsock nbd (-1L) 1L with
   | () -> fail "connect_vsock took a negative cid"
   | exception Invalid_argument _ -> ()
   | exception NBD.Error _ -> fail "negative cid reached C");
  NBD.close nbd;
  let nbd = connected [ "memory"; "1M"; "--filter=error"; "error-pread=EIO";
                        "error-pread-rate=100%" ] in
  ignore (expect_error ~errno:Unix.EIO "server EIO" (fun () ->
    NBD.pread nbd (Bytes.create 512) 0L));
  NBD.close nbd;
  (match NBD.pread nbd (Bytes.create 1) 0L with
   | () -> fail "pread after close"
   | exception NBD.Closed "NBD.pread" -> ());
  (* errno_of_unix_error round-trips through the exception. *)
  check (NBD.errno_of_unix_error Unix.ENOTCONN = 107) "ENOTCONN"
