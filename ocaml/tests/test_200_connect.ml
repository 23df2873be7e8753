(* Connecting by command and by URI (a Unix socket). *)
open Common

let () =
  let nbd = connected [ "memory"; "1M" ] in
  check (NBD.aio_is_ready nbd) "ready after connect_command";
  check (NBD.get_size nbd = 1048576L) "size by command";
  check (NBD.get_protocol nbd = "newstyle-fixed") "protocol";
  check (Int64.compare (NBD.get_subprocess_pid nbd) 0L > 0) "subprocess pid";
  NBD.shutdown nbd;
  NBD.close nbd;
  with_unix_server [ "memory"; "2M" ] (fun sock ->
    let uri = "nbd+unix:///?socket=" ^ sock in
    NBD.with_handle (fun nbd ->
      check (NBD.is_uri nbd uri) "is_uri";
      NBD.connect_uri nbd uri;
      check (NBD.get_size nbd = 2097152L) "size by URI";
      let u = NBD.get_uri nbd in
      check (String.length u > 0 && String.sub u 0 9 = "nbd+unix:")
        "get_uri %s" u);
    NBD.with_handle (fun nbd ->
      NBD.connect_unix nbd sock;
      check (NBD.get_size nbd = 2097152L) "size by connect_unix");
    (* A socket address, as Unix.sockaddr. *)
    NBD.with_handle (fun nbd ->
      NBD.aio_connect nbd (Unix.ADDR_UNIX sock);
      while NBD.aio_is_connecting nbd do
        ignore (NBD.poll nbd 1000)
      done;
      check (NBD.aio_is_ready nbd) "aio_connect";
      check (NBD.get_size nbd = 2097152L) "size by aio_connect"))
