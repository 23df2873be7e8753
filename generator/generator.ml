(* The generator: checks the tables, then writes every derived file.
   Everything is checked before the first file is written. *)

let () =
  if not (Sys.file_exists "generator/generator.ml") then
    failwith "run the generator from the top of the source tree";
  API.check_table ();
  States_emit.check_events ();
  let fragments =
    Sys.readdir "generator" |> Array.to_list
    |> List.filter (fun f ->
         Utils.string_starts_with ~prefix:"states-" f
         && Filename.check_suffix f ".c")
    |> List.sort compare
    |> List.map (fun f -> States_emit.parse_fragment ("generator/" ^ f)) in
  States_emit.check_fragments fragments;
  let outdir = try Sys.getenv "GENERATOR_OUTDIR" with Not_found -> "." in
  let out f g = Utils.output_to (Filename.concat outdir f) g in
  out "include/libnbd.h" C.generate_include_libnbd_h;
  out "lib/unlocked.h" C.generate_lib_unlocked_h;
  out "lib/api.c" C.generate_lib_api_c;
  out "lib/libnbd.syms" C.generate_lib_libnbd_syms;
  out "lib/states.h" States_emit.generate_lib_states_h;
  out "lib/states.c" (fun () -> States_emit.generate_lib_states_c fragments);
  GoLang.generate out;
  Python.generate out;
  (* The man pages and their list for docs/Makefile.am. *)
  Man.generate_man_pages out;
  OCaml.generate out;
  Rust.generate out
