(* The debug callback gets libnbd's messages; clearing it stops them. *)
open Common

let () =
  let nbd = NBD.create () in
  let msgs = ref 0 and ctxs = ref [] in
  NBD.set_debug nbd true;
  NBD.set_debug_callback nbd (fun ctx msg ->
    incr msgs;
    if not (List.mem ctx !ctxs) then ctxs := ctx :: !ctxs;
    check (String.length msg > 0) "empty message";
    0);
  NBD.connect_command nbd (nbdkit [ "memory"; "1M" ]);
  check (!msgs > 0) "no debug messages";
  check (List.exists (fun c -> c = "nbd_connect_command") !ctxs)
    "no message from nbd_connect_command (got %s)" (String.concat "," !ctxs);
  NBD.clear_debug_callback nbd;
  NBD.set_debug nbd false;
  let before = !msgs in
  NBD.pread nbd (Bytes.create 512) 0L;
  check (!msgs = before) "messages after clear_debug_callback";
  NBD.close nbd
