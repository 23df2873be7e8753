(* A failed assert in a callback is a bug in the program: it aborts,
   as libnbd 1.22 and libnbd-ocaml(3) say, instead of being printed
   and failing the command like any other exception.  Each case runs
   in a child (this program again, with the case's name), which must
   die of SIGABRT after printing the exception. *)
open Common

let cases = [
  (* A completion callback, run from NBD.poll. *)
  "completion", (fun () ->
    let nbd = connected [ "memory"; "1M" ] in
    let buf = NBD.Buffer.alloc 512 in
    let c = NBD.aio_pread nbd buf 0L
              ~completion:(fun _ -> assert (NBD.Buffer.size buf = 0); 1) in
    while not (NBD.aio_command_completed nbd c) do
      ignore (NBD.poll nbd 1000)
    done);
  (* A chunk callback, run from a synchronous call. *)
  "chunk", (fun () ->
    let nbd = connected [ "memory"; "1M" ] in
    NBD.pread_structured nbd (Bytes.create 512) 0L
      (fun _ _ _ _ -> assert (Sys.word_size = 0); 0));
]

let child name =
  (List.assoc name cases) ();
  (* Reaching here means the assert did not abort. *)
  exit 3

let parent name =
  let err = Filename.temp_file "ocaml-nbd-assert" ".err" in
  let fd = Unix.openfile err [ Unix.O_WRONLY; Unix.O_TRUNC ] 0o600 in
  let pid = Unix.create_process Sys.executable_name
              [| Sys.executable_name; name |] Unix.stdin Unix.stdout fd in
  Unix.close fd;
  let _, status = Unix.waitpid [] pid in
  let ic = open_in err in
  let text = really_input_string ic (in_channel_length ic) in
  close_in ic;
  Sys.remove err;
  prerr_string text;
  (match status with
   | Unix.WSIGNALED s when s = Sys.sigabrt -> ()
   | Unix.WSIGNALED s -> fail "%s: child killed by signal %d" name s
   | Unix.WEXITED n -> fail "%s: child exited %d, did not abort" name n
   | Unix.WSTOPPED _ -> fail "%s: child stopped" name);
  let has sub =
    let n = String.length sub in
    let rec at i =
      i + n <= String.length text && (String.sub text i n = sub || at (i + 1))
    in at 0 in
  check (has "Assert_failure") "%s: the exception was not printed" name;
  Printf.printf "%s: aborted\n" name

let () =
  match Sys.argv with
  | [| _; name |] -> child name
  | _ -> List.iter (fun (name, _) -> parent name) cases
