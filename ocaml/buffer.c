/* buffer.c: copies between NBD.Buffer.t (a Bigarray of chars) and
 * OCaml strings, and NBD.Buffer.is_zero.
 */

#include <config.h>

#include <stdbool.h>
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

/* Are the [n] bytes at [p] all zero?  The first 16 are looked at one
 * by one; then, those being zero, each byte equals the one 16 before
 * it exactly when all are zero.
 */
static bool
all_zero (const unsigned char *p, size_t n)
{
  size_t i;

  for (i = 0; i < n && i < 16; i++)
    if (p[i] != 0)
      return false;
  return n <= 16 || memcmp (p, p + 16, n - 16) == 0;
}

/* NBD.Buffer.is_zero ?sub buf: [sub] is (offset, len), which must lie
 * inside the buffer (Invalid_argument otherwise, as in libnbd 1.24);
 * an empty range is all zero.  The bytes are outside the OCaml heap
 * and nothing here allocates before it returns or raises, so no root
 * is needed.
 */
value
mlnbd_buffer_is_zero (value subv, value bufv)
{
  const unsigned char *p = Caml_ba_data_val (bufv);
  intnat size = Caml_ba_array_val (bufv)->dim[0];
  intnat off = 0, len = size;

  if (Is_some (subv)) {
    off = Long_val (Field (Some_val (subv), 0));
    len = Long_val (Field (Some_val (subv), 1));
    if (off < 0 || len < 0 || off > size || len > size - off)
      caml_invalid_argument ("NBD.Buffer.is_zero");
  }
  return Val_bool (all_zero (p + off, len));
}
