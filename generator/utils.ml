(* Output helpers of the generator: write a file only when it changed. *)

let chan = ref stdout
let lines = ref 0               (* lines written to the current file *)
let pr fs =
  Printf.ksprintf (fun s ->
    String.iter (fun c -> if c = '\n' then incr lines) s;
    output_string !chan s) fs

let generated_by = "generator/generator"

(* Write to a temporary file, then replace [filename] only if the
   contents differ, so make does not rebuild what did not change.
   Generated files are read-only so nobody edits them by hand. *)
(* Create DIR and any missing parents (for a build tree outside the
   source tree, whose directories may not exist yet). *)
let rec mkdir_p dir =
  if not (Sys.file_exists dir) then (
    mkdir_p (Filename.dirname dir);
    Unix.mkdir dir 0o755
  )

let output_to filename f =
  mkdir_p (Filename.dirname filename);
  let tmp = filename ^ ".new" in
  let oc = open_out tmp in
  chan := oc;
  lines := 0;
  f ();
  close_out oc;
  chan := stdout;
  let same =
    Sys.file_exists filename &&
      (let read fn =
         let ic = open_in_bin fn in
         let s = really_input_string ic (in_channel_length ic) in
         close_in ic; s in
       read filename = read tmp) in
  if same then Sys.remove tmp
  else (
    if Sys.file_exists filename then Unix.chmod filename 0o644;
    Sys.rename tmp filename;
    Unix.chmod filename 0o444
  )

let failwithf fs = Printf.ksprintf failwith fs

let rec filter_map f = function
  | [] -> []
  | x :: xs -> (match f x with Some y -> y :: filter_map f xs
                              | None -> filter_map f xs)

(* The first index of [sub] in [s] at or after [i]. *)
let index_from s i sub =
  let n = String.length s and m = String.length sub in
  let rec loop j =
    if j + m > n then None
    else if String.sub s j m = sub then Some j
    else loop (j + 1) in
  loop i

let string_starts_with ~prefix s =
  String.length s >= String.length prefix &&
    String.sub s 0 (String.length prefix) = prefix

(* Header comment of a generated C file. *)
let generated_header ?(comment="/*") what =
  let c = if comment = "/*" then " *" else comment in
  if comment = "/*" then pr "/* %s\n" what else pr "%s %s\n" c what;
  pr "%s WARNING: THIS FILE IS GENERATED FROM\n" c;
  pr "%s %s\n" c generated_by;
  pr "%s ANY CHANGES YOU MAKE TO THIS FILE WILL BE LOST.\n" c;
  if comment = "/*" then pr " */\n";
  pr "\n"
