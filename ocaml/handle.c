/* handle.c: the handle of the OCaml bindings, in a custom block, and
 * the exceptions the stubs raise.
 */

#include <config.h>

#include <stdlib.h>

#include "nbd-c.h"

#include <caml/version.h>
#include <caml/unixsupport.h>

/* OCaml 5 prefixes the unix library's C functions. */
#if OCAML_VERSION_MAJOR >= 5
#define unix_error_of_code caml_unix_error_of_code
#define code_of_unix_error caml_unix_code_of_unix_error
#endif

/* No finaliser here: closing a handle calls the .free of its closures,
 * which is OCaml work, so NBD.create attaches an OCaml finaliser that
 * calls NBD.close instead.
 */
static struct custom_operations handle_ops = {
  "org.libguestfs.libnbd.handle",
  custom_finalize_default,
  custom_compare_default,
  custom_hash_default,
  custom_serialize_default,
  custom_deserialize_default,
  custom_compare_ext_default,
  custom_fixed_length_default,
};

/* The handle of [hv], or raise NBD.Closed naming the call. */
struct nbd_handle *
mlnbd_handle (value hv, const char *call)
{
  struct nbd_handle *h = Handle_val (hv);

  if (h == NULL)
    caml_raise_with_string (*caml_named_value ("mlnbd_closed"), call);
  return h;
}

/* Raise NBD.Error with the message and errno of the call that just
 * failed in this thread.
 */
void
mlnbd_raise_error (void)
{
  CAMLparam0 ();
  CAMLlocal3 (msgv, errv, exn);
  const char *msg = nbd_get_error ();
  int err = nbd_get_errno ();

  msgv = caml_copy_string (msg ? msg : "libnbd call failed");
  if (err == 0)
    errv = Val_none;
  else
    errv = caml_alloc_some (unix_error_of_code (err));
  exn = caml_alloc_small (3, 0);
  Field (exn, 0) = *caml_named_value ("mlnbd_error");
  Field (exn, 1) = msgv;
  Field (exn, 2) = errv;
  caml_raise (exn);
  CAMLnoreturn;
}

value
mlnbd_create (value unitv)
{
  CAMLparam1 (unitv);
  CAMLlocal1 (hv);
  struct nbd_handle *h;

  h = nbd_create ();
  if (h == NULL)
    mlnbd_raise_error ();
  /* The handle's memory is outside the heap: tell the GC about it, so
   * that unreachable handles are collected (and closed) in time.
   */
  hv = caml_alloc_custom_mem (&handle_ops, sizeof h, 8192);
  Handle_val (hv) = h;
  CAMLreturn (hv);
}

/* Close the handle; closing it again does nothing. */
value
mlnbd_close (value hv)
{
  CAMLparam1 (hv);
  struct nbd_handle *h = Handle_val (hv);

  if (h != NULL) {
    Handle_val (hv) = NULL;
    /* Closing waits for a subprocess and runs the closures' .free,
     * which take the runtime lock again.
     */
    caml_enter_blocking_section ();
    nbd_close (h);
    caml_leave_blocking_section ();
  }
  CAMLreturn (Val_unit);
}

value
mlnbd_errno_of_unix_error (value errv)
{
  return Val_int (code_of_unix_error (errv));
}
