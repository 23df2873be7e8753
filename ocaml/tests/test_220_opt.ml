(* Opt mode: list exports, info, meta contexts and their queries,
   then go. *)
open Common

let () =
  let nbd = NBD.create () in
  NBD.set_opt_mode nbd true;
  NBD.connect_command nbd (nbdkit [ "memory"; "1M" ]);
  check (NBD.aio_is_negotiating nbd) "negotiating";
  let names = ref [] in
  let n = NBD.opt_list nbd (fun name _desc -> names := name :: !names; 0) in
  check (n = List.length !names && n >= 1) "opt_list count %d" n;
  NBD.opt_info nbd;
  check (NBD.get_size nbd = 1048576L) "size from opt_info";
  let ctxs = ref [] in
  let n = NBD.opt_list_meta_context nbd (fun c -> ctxs := c :: !ctxs; 0) in
  check (n = List.length !ctxs) "opt_list_meta_context count";
  check (List.mem "base:allocation" !ctxs) "base:allocation listed";
  let q = ref [] in
  let n = NBD.opt_list_meta_context_queries nbd [ "base:" ]
            (fun c -> q := c :: !q; 0) in
  check (n >= 1 && List.for_all (fun c -> String.sub c 0 5 = "base:") !q)
    "queries";
  let set = ref [] in
  let n = NBD.opt_set_meta_context_queries nbd [ "base:allocation" ]
            (fun c -> set := c :: !set; 0) in
  check (n = 1 && !set = [ "base:allocation" ]) "opt_set_meta_context_queries";
  NBD.add_meta_context nbd "base:allocation";
  check (NBD.get_nr_meta_contexts nbd = 1) "nr meta contexts";
  check (NBD.get_meta_context nbd 0 = "base:allocation") "get_meta_context";
  let n = NBD.opt_set_meta_context nbd (fun _ -> 0) in
  check (n = 1) "opt_set_meta_context";
  NBD.opt_go nbd;
  check (NBD.aio_is_ready nbd) "ready after opt_go";
  check (NBD.can_meta_context nbd "base:allocation") "can_meta_context";
  NBD.close nbd;
  (* opt_abort ends the connection. *)
  let nbd = NBD.create () in
  NBD.set_opt_mode nbd true;
  NBD.connect_command nbd (nbdkit [ "memory"; "1M" ]);
  NBD.opt_abort nbd;
  check (NBD.aio_is_closed nbd) "closed after opt_abort";
  NBD.close nbd
