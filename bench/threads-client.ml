(* bench/threads-client.ml: THREADS OCaml threads share one NBD.t
 * handle, each making READS blocking 4 KiB NBD.pread calls, for
 * bench/bindings-threads.sh.  The binding leaves the runtime lock
 * around each call, so how many reads are in flight at once is the
 * library's doing.
 * Usage: threads-client SOCKET THREADS READS
 * Prints: "<reads/s> <client CPU seconds per 1000 reads> <libnbd
 * version>", the first two from the first call to the last return.
 *)

let cpu_seconds () =
  let t = Unix.times () in
  t.Unix.tms_utime +. t.Unix.tms_stime

let run nbd reads t =
  let buf = Bytes.create 4096 in
  for i = 0 to reads - 1 do
    NBD.pread nbd buf (Int64.of_int (((t * reads + i) mod 256) * 4096))
  done

let () =
  if Array.length Sys.argv <> 4 then exit 2;
  let threads = int_of_string Sys.argv.(2)
  and reads = int_of_string Sys.argv.(3) in
  let nbd = NBD.create () in
  NBD.connect_unix nbd Sys.argv.(1);
  let c0 = cpu_seconds () and t0 = Unix.gettimeofday () in
  let workers = List.init threads (Thread.create (run nbd reads)) in
  List.iter Thread.join workers;
  let wall = Unix.gettimeofday () -. t0 and cpu = cpu_seconds () -. c0 in
  let n = float_of_int (threads * reads) in
  Printf.printf "%.0f %.4f %s\n" (n /. wall) (cpu *. 1000. /. n)
    (NBD.get_version nbd);
  NBD.close nbd
