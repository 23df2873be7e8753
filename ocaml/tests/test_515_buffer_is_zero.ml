(* NBD.Buffer.is_zero, with and without ~sub, as in libnbd 1.24: a
   range outside the buffer raises Invalid_argument; an empty range is
   all zero; the buffer of an aio_pread of a hole is all zero. *)
open Common

let zeroed n =
  let b = NBD.Buffer.alloc n in
  Bigarray.Array1.fill b '\000';
  b

let invalid what f =
  match f () with
  | _ -> fail "%s: no Invalid_argument" what
  | exception Invalid_argument msg ->
     check (msg = "NBD.Buffer.is_zero") "%s: message %S" what msg

let () =
  check (NBD.Buffer.is_zero (zeroed 0)) "empty buffer";
  check (NBD.Buffer.is_zero (zeroed 1)) "one zero byte";
  check (NBD.Buffer.is_zero (zeroed 100000)) "100000 zero bytes";
  (* One byte set, at each place the check treats apart: the first 16
     bytes, the 17th, the last. *)
  let n = 4096 in
  List.iter (fun i ->
    let b = zeroed n in
    b.{i} <- '\001';
    check (not (NBD.Buffer.is_zero b)) "byte %d set" i;
    check (NBD.Buffer.is_zero ~sub:(0, i) b) "before byte %d" i;
    check (NBD.Buffer.is_zero ~sub:(i + 1, n - i - 1) b) "after byte %d" i;
    check (not (NBD.Buffer.is_zero ~sub:(i, 1) b)) "byte %d alone" i;
    check (NBD.Buffer.is_zero ~sub:(i, 0) b) "empty range at byte %d" i;
    if i > 0 then
      check (not (NBD.Buffer.is_zero ~sub:(i - 1, 2) b)) "around byte %d" i
  ) [ 0; 1; 15; 16; 17; 31; 32; 1000; n - 1 ];
  let b = NBD.Buffer.of_string "\000\000\000x\000\000\000\000" in
  check (NBD.Buffer.is_zero ~sub:(0, 3) b) "sub (0, 3)";
  check (not (NBD.Buffer.is_zero ~sub:(0, 4) b)) "sub (0, 4)";
  check (NBD.Buffer.is_zero ~sub:(4, 4) b) "sub (4, 4)";
  check (NBD.Buffer.is_zero ~sub:(8, 0) b) "empty range at the end";
  check (not (NBD.Buffer.is_zero ~sub:(0, 8) b)) "sub: whole buffer";
  (* Ranges not inside the buffer. *)
  List.iter (fun (off, len) ->
    invalid (Printf.sprintf "sub (%d, %d)" off len)
      (fun () -> NBD.Buffer.is_zero ~sub:(off, len) b)
  ) [ (-1, 0); (0, -1); (-1, 2); (0, 9); (8, 1); (9, 0); (4, 5);
      (1, max_int); (max_int, 1); (max_int, max_int); (min_int, 0) ];
  invalid "sub on an empty buffer"
    (fun () -> NBD.Buffer.is_zero ~sub:(0, 1) (zeroed 0));
  (* A read of what the server holds: zeroes, then the data written. *)
  let nbd = connected [ "memory"; "size=1M" ] in
  let rd = NBD.Buffer.alloc 65536 in
  Bigarray.Array1.fill rd '\255';
  let read () =
    let c = NBD.aio_pread nbd rd 0L in
    while not (NBD.aio_command_completed nbd c) do
      ignore (NBD.poll nbd (-1))
    done in
  read ();
  check (NBD.Buffer.is_zero rd) "read of a hole";
  NBD.pwrite nbd (Bytes.make 1 'a') 40000L;
  read ();
  check (not (NBD.Buffer.is_zero rd)) "read of data";
  check (NBD.Buffer.is_zero ~sub:(0, 40000) rd) "read: before the data";
  check (NBD.Buffer.is_zero ~sub:(40001, 65536 - 40001) rd)
    "read: after the data";
  NBD.close nbd
