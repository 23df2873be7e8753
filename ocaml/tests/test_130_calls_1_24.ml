(* The calls new in libnbd 1.24: the extra version, the handle size
   and the TLS priority string. *)
open Common

let () =
  let nbd = NBD.create () in
  ignore (NBD.get_version_extra nbd : string);
  let size = NBD.get_handle_size nbd in
  check (size > 0) "handle size";
  NBD.set_export_name nbd (String.make 4096 'x');
  check (NBD.get_handle_size nbd >= size + 4096) "handle size grows";
  let p = NBD.get_tls_priority nbd in
  check (String.length p >= 6 && String.sub p 0 6 = "NORMAL")
    "default TLS priority";
  NBD.set_tls_priority nbd "NORMAL:-VERS-TLS1.2";
  check (NBD.get_tls_priority nbd = "NORMAL:-VERS-TLS1.2") "TLS priority";
  NBD.set_uri_allow_tls_priority nbd false;
  (match NBD.connect_uri nbd
           "nbd+unix:///?socket=/nonexistent&tls-priority=NORMAL" with
   | () -> check false "tls-priority= not refused"
   | exception NBD.Error (_, errno) ->
      check (errno = Some Unix.EPERM) "tls-priority= refused with EPERM");
  NBD.close nbd;
  print_endline "test_130_calls_1_24: OK"
