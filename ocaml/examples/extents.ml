(* extents: print the allocation map of an NBD export, asking for
   32-bit block status entries.
   Usage: extents URI *)

let () =
  if Array.length Sys.argv <> 2 then (
    prerr_endline "usage: extents URI";
    exit 2
  );
  NBD.with_handle (fun nbd ->
    NBD.add_meta_context nbd NBD.context_base_allocation;
    NBD.connect_uri nbd Sys.argv.(1);
    let size = NBD.get_size nbd in
    let offset = ref 0L in
    while !offset < size do
      (* The server may describe less than asked: go on from where the
         reply ends. *)
      let next = ref size in
      NBD.block_status nbd (Int64.sub size !offset) !offset
        (fun ctx off entries _ ->
          if ctx = NBD.context_base_allocation then (
            let pos = ref off in
            for i = 0 to Array.length entries / 2 - 1 do
              let len = entries.(2 * i) and flags = entries.(2 * i + 1) in
              Printf.printf "%Ld %Ld %Ld\n" !pos len flags;
              pos := Int64.add !pos len
            done;
            next := !pos
          );
          0);
      offset := !next
    done)
