(* Blocking calls let other OCaml threads run: two reads against
   nbdkit's delay filter, from two threads on two handles, take about
   as long as one. *)
open Common

let delay = 1.0

let () =
  let server () =
    connected [ "--filter=delay"; "memory"; "1M";
                Printf.sprintf "rdelay=%g" delay ] in
  let a = server () and b = server () in
  (* One read alone, for the reference. *)
  let t0 = Unix.gettimeofday () in
  NBD.pread a (Bytes.create 512) 0L;
  let one = Unix.gettimeofday () -. t0 in
  check (one >= delay *. 0.9) "the delay filter did not delay (%.2fs)" one;
  let t0 = Unix.gettimeofday () in
  let read h () = NBD.pread h (Bytes.create 512) 0L in
  let ta = Thread.create (read a) () and tb = Thread.create (read b) () in
  Thread.join ta;
  Thread.join tb;
  let two = Unix.gettimeofday () -. t0 in
  Printf.printf "one read %.2fs, two in threads %.2fs\n" one two;
  check (two < one +. delay *. 0.5)
    "two threaded reads took %.2fs, one took %.2fs: serialised" two one;
  NBD.close a;
  NBD.close b
