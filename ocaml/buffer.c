/* buffer.c: copies between NBD.Buffer.t (a Bigarray of chars) and
 * OCaml strings.
 */

#include <config.h>

#include <string.h>

#include "nbd-c.h"

value
mlnbd_buffer_to_bytes (value bufv)
{
  CAMLparam1 (bufv);
  CAMLlocal1 (rv);

  rv = caml_alloc_initialized_string (Caml_ba_array_val (bufv)->dim[0],
                                      Caml_ba_data_val (bufv));
  CAMLreturn (rv);
}

/* Copy string [sv] into [bufv], which NBD.Buffer.of_string made the
 * same size.
 */
value
mlnbd_buffer_blit_from (value sv, value bufv)
{
  size_t n = caml_string_length (sv);

  if (n != (size_t) Caml_ba_array_val (bufv)->dim[0])
    caml_invalid_argument ("NBD.Buffer: sizes differ");
  memcpy (Caml_ba_data_val (bufv), String_val (sv), n);
  return Val_unit;
}
