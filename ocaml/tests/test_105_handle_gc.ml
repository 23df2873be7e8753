(* Handles nobody closes are collected and closed by the GC in time:
   the custom block of a handle tells the GC what the handle weighs
   (nbd_get_handle_size in libnbd 1.24), so a loop that makes handles
   and drops them sees most of them finalised before it ends, with no
   explicit Gc call.  A block that weighed only its two words would
   leave them all until the end (checked: none finalised). *)
open Common

let n = 4000

let () =
  let finalised = ref 0 in
  for _ = 1 to n do
    let h = NBD.create () in
    Gc.finalise (fun _ -> incr finalised) h
  done;
  let early = !finalised in
  check (early >= n / 2) "only %d of %d dropped handles finalised" early n;
  Gc.full_major ();
  check (!finalised = n) "after a full major GC: %d of %d finalised"
    !finalised n;
  (* The GC's close is a real close: it releases the handle's
     closures (here a debug callback each), which the GC can then
     collect in turn. *)
  let released = ref 0 in
  for i = 1 to 200 do
    let h = NBD.create () in
    let cb = ref (fun _ _ -> i) in
    Gc.finalise (fun _ -> incr released) cb;
    NBD.set_debug_callback h (fun ctx msg -> !cb ctx msg)
  done;
  Gc.full_major ();
  Gc.full_major ();
  check (!released = 200) "%d of 200 debug callbacks released" !released
