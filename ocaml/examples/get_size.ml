(* get_size: print the size of an NBD export.
   Usage: get_size URI *)

let () =
  if Array.length Sys.argv <> 2 then (
    prerr_endline "usage: get_size URI";
    exit 2
  );
  NBD.with_handle (fun nbd ->
    NBD.connect_uri nbd Sys.argv.(1);
    Printf.printf "%Ld\n" (NBD.get_size nbd))
