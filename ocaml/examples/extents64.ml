(* extents64: print the allocation map of an NBD export, asking for
   64-bit block status entries (which a server with extended headers
   sends as such).
   Usage: extents64 URI *)

let () =
  if Array.length Sys.argv <> 2 then (
    prerr_endline "usage: extents64 URI";
    exit 2
  );
  NBD.with_handle (fun nbd ->
    NBD.add_meta_context nbd NBD.context_base_allocation;
    NBD.connect_uri nbd Sys.argv.(1);
    let size = NBD.get_size nbd in
    let offset = ref 0L in
    while !offset < size do
      let next = ref size in
      NBD.block_status_64 nbd (Int64.sub size !offset) !offset
        (fun ctx off entries _ ->
          if ctx = NBD.context_base_allocation then (
            let pos = ref off in
            Array.iter (fun (len, flags) ->
              Printf.printf "%Ld %Ld %Ld\n" !pos len flags;
              pos := Int64.add !pos len) entries;
            next := !pos
          );
          0);
      offset := !next
    done)
