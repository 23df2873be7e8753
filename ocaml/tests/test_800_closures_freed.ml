(* Closures and buffers are released: after 100,000 aio commands every
   completion closure and buffer has been collected, and the heap and
   the process stay flat. *)
open Common

let n = 100_000

let rss_kb () =
  let ic = open_in "/proc/self/status" in
  let rec loop () =
    match input_line ic with
    | l when String.length l > 6 && String.sub l 0 6 = "VmRSS:" ->
       Scanf.sscanf l "VmRSS: %d kB" Fun.id
    | _ -> loop ()
    | exception End_of_file -> 0 in
  let r = loop () in
  close_in ic; r

let () =
  let nbd = connected [ "memory"; "1M" ] in
  let closures = ref 0 and buffers = ref 0 and completed = ref 0 in
  let batch k =
    for i = 1 to k do
      let buf = NBD.Buffer.alloc 512 in
      Gc.finalise (fun _ -> incr buffers) buf;
      (* A closure of its own (it captures i), counted when freed. *)
      let completion err = if !err = 0 && i > 0 then incr completed; 1 in
      Gc.finalise (fun _ -> incr closures) completion;
      ignore (NBD.aio_pread nbd buf (Int64.of_int (512 * (i mod 2048)))
                ~completion);
      while NBD.aio_in_flight nbd >= 64 do ignore (NBD.poll nbd 1000) done
    done;
    while NBD.aio_in_flight nbd > 0 do ignore (NBD.poll nbd 1000) done in
  (* Ten batches of 10,000, each followed by a full collection; the
     first two warm up (the heap and malloc's arenas reach their
     working size), then RSS and the heap must stay where they are: a
     leak of even 64 bytes a command would add 5 MB over the rest. *)
  let rss = Array.make 10 0 and heap = Array.make 10 0 in
  for b = 0 to 9 do
    batch (n / 10);
    Gc.full_major ();
    rss.(b) <- rss_kb ();
    heap.(b) <- (Gc.stat ()).Gc.heap_words
  done;
  Printf.printf "RSS after each batch (kB): %s\n"
    (String.concat " " (Array.to_list (Array.map string_of_int rss)));
  Printf.printf "major heap (words): %s\n"
    (String.concat " " (Array.to_list (Array.map string_of_int heap)));
  let heap0 = heap.(2) and heap1 = heap.(9)
  and rss0 = Array.fold_left max 0 (Array.sub rss 0 3) and rss1 = rss.(9) in
  Printf.printf "completed %d, closures freed %d, buffers freed %d\n"
    !completed !closures !buffers;
  check (!completed = n) "completed %d of %d" !completed n;
  check (!closures = n) "closures collected: %d of %d" !closures n;
  check (!buffers = n) "buffers collected: %d of %d" !buffers n;
  check (heap1 <= heap0 * 2) "OCaml heap grew: %d -> %d words" heap0 heap1;
  (* AddressSanitizer and valgrind hold freed memory back (quarantine,
     freelist), so RSS grows under them; their leak checks cover the C
     side instead. *)
  let contains s sub =
    let n = String.length s and m = String.length sub in
    let rec at i = i + m <= n && (String.sub s i m = sub || at (i + 1)) in
    at 0 in
  let asan =
    match Sys.getenv_opt "OCAML_SANITIZE" with
    | Some s -> contains s "address"
    | None -> false in
  let valgrind = Sys.getenv_opt "LIBNBD_VALGRIND" = Some "1" in
  if asan || valgrind then
    print_endline "RSS not checked under AddressSanitizer or valgrind"
  else check (rss1 < rss0 + 2048) "RSS grew: %d -> %d kB" rss0 rss1;
  NBD.close nbd
