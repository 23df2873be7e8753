(* Handles: create, close, with_handle, Closed; the defaults of a new
   handle and settings read back. *)
open Common

let () =
  let nbd = NBD.create () in
  (* Defaults, as libnbd 1.22 has them. *)
  check (NBD.get_export_name nbd = "") "export name default";
  check (NBD.get_tls nbd = NBD.TLS.DISABLE) "tls default";
  check (NBD.get_request_structured_replies nbd) "structured replies";
  check (NBD.get_request_extended_headers nbd) "extended headers";
  check (NBD.get_request_meta_context nbd) "request meta context";
  check (NBD.get_handshake_flags nbd = NBD.HANDSHAKE_FLAG.mask)
    "handshake flags default";
  check (not (NBD.get_opt_mode nbd)) "opt mode default";
  check (NBD.get_pread_initialize nbd) "pread initialize default";
  check (not (NBD.get_full_info nbd)) "full info default";
  check (NBD.get_private_data nbd = 0) "private data default";
  check (NBD.aio_is_created nbd) "created";
  (* Settings read back. *)
  NBD.set_export_name nbd "name";
  check (NBD.get_export_name nbd = "name") "export name";
  NBD.set_tls nbd NBD.TLS.ALLOW;
  check (NBD.get_tls nbd = NBD.TLS.ALLOW) "tls";
  NBD.set_handshake_flags nbd [ NBD.HANDSHAKE_FLAG.NO_ZEROES ];
  check (NBD.get_handshake_flags nbd = [ NBD.HANDSHAKE_FLAG.NO_ZEROES ])
    "handshake flags";
  NBD.set_strict_mode nbd [ NBD.STRICT.COMMANDS; NBD.STRICT.BOUNDS ];
  check (NBD.get_strict_mode nbd = [ NBD.STRICT.COMMANDS; NBD.STRICT.BOUNDS ])
    "strict mode";
  (* A bit libnbd does not know (UNKNOWN of its position) is refused,
     not dropped; a position past 31 does not reach C. *)
  ignore (expect_error ~errno:Unix.EINVAL "strict UNKNOWN"
            (fun () -> NBD.set_strict_mode nbd [ NBD.STRICT.UNKNOWN 12 ]));
  (match NBD.set_strict_mode nbd [ NBD.STRICT.UNKNOWN 32 ] with
   | () -> fail "UNKNOWN 32 accepted"
   | exception Invalid_argument _ -> ());
  check (NBD.set_private_data nbd 42 = 0) "set_private_data old value";
  check (NBD.get_private_data nbd = 42) "private data";
  NBD.set_handle_name nbd "ocaml";
  check (NBD.get_handle_name nbd = "ocaml") "handle name";
  NBD.close nbd;
  NBD.close nbd;                        (* a second close does nothing *)
  (match NBD.get_size nbd with
   | _ -> fail "call after close succeeded"
   | exception NBD.Closed s -> check (s = "NBD.get_size") "Closed %s" s);
  (* with_handle closes on return and on an exception. *)
  let saved = ref None in
  let r = NBD.with_handle (fun h -> saved := Some h; 7) in
  check (r = 7) "with_handle result";
  (match NBD.get_debug (Option.get !saved) with
   | _ -> fail "with_handle left the handle open"
   | exception NBD.Closed _ -> ());
  (match NBD.with_handle (fun h -> saved := Some h; failwith "x") with
   | _ -> fail "with_handle swallowed the exception"
   | exception Failure _ -> ());
  match NBD.get_debug (Option.get !saved) with
  | _ -> fail "with_handle left the handle open after raising"
  | exception NBD.Closed _ -> ()
