(* asynch_copy: copy one NBD export to another, both driven by one
   loop of asynchronous commands: up to 16 reads in flight, each
   followed by the write of its data.
   Usage: asynch_copy SRC-URI DST-URI *)

let bs = 65536
let max_reads = 16

let () =
  if Array.length Sys.argv <> 3 then (
    prerr_endline "usage: asynch_copy SRC-URI DST-URI";
    exit 2
  );
  let src = NBD.create () and dst = NBD.create () in
  NBD.connect_uri src Sys.argv.(1);
  NBD.connect_uri dst Sys.argv.(2);
  let size = NBD.get_size src in
  if NBD.get_size dst < size then failwith "destination is too small";
  let offset = ref 0L in
  let writes = ref 0 in
  (* A read's completion starts the write of its buffer; the write's
     completion keeps the buffer alive until it is done. *)
  let start_read () =
    let len = Int64.to_int (min (Int64.of_int bs) (Int64.sub size !offset)) in
    let buf = NBD.Buffer.alloc len in
    let off = !offset in
    let completion err =
      if !err <> 0 then failwith "read failed";
      incr writes;
      ignore (NBD.aio_pwrite dst buf off
                ~completion:(fun err ->
                  if !err <> 0 then failwith "write failed";
                  decr writes;
                  1));
      1 in
    ignore (NBD.aio_pread src buf off ~completion);
    offset := Int64.add !offset (Int64.of_int len) in
  let pending () = NBD.aio_in_flight src + NBD.aio_in_flight dst in
  while !offset < size || pending () > 0 do
    while !offset < size && NBD.aio_in_flight src < max_reads do
      start_read ()
    done;
    (* Wait on whichever handle has work. *)
    let fds = List.filter_map (fun h ->
      if NBD.aio_in_flight h > 0 then
        Some (NBD.aio_get_fd h, h) else None) [ src; dst ] in
    let want dir h = NBD.aio_get_direction h land dir <> 0 in
    let rd = List.filter_map (fun (fd, h) ->
      if want 1 h then Some fd else None) fds in
    let wr = List.filter_map (fun (fd, h) ->
      if want 2 h then Some fd else None) fds in
    if fds <> [] then (
      let r, w, _ = Unix.select rd wr [] (-1.) in
      List.iter (fun (fd, h) ->
        if List.mem fd r then NBD.aio_notify_read h;
        if List.mem fd w then NBD.aio_notify_write h) fds
    )
  done;
  ignore !writes;
  NBD.flush dst;
  NBD.shutdown src;
  NBD.shutdown dst;
  NBD.close src;
  NBD.close dst
