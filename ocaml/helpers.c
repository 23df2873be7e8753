/* helpers.c: closures and the conversions of arguments between OCaml
 * and C, for the generated stubs in nbd-c.c.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbd-c.h"

#include <caml/printexc.h>
#include <caml/socketaddr.h>
#include <caml/version.h>

#if OCAML_VERSION_MAJOR >= 5
#define get_sockaddr caml_unix_get_sockaddr
#endif

/* ---- closures ---- */

struct mlnbd_closure *
mlnbd_closure_new (value fn, value buf)
{
  struct mlnbd_closure *data = malloc (sizeof *data);

  if (data == NULL)
    return NULL;
  data->fn = fn;
  data->buf = buf;
  /* Generational roots: minor collections need not scan them once
   * the function and buffer are in the major heap.
   */
  caml_register_generational_global_root (&data->fn);
  caml_register_generational_global_root (&data->buf);
  return data;
}

void
mlnbd_closure_release (struct mlnbd_closure *data)
{
  if (data == NULL)
    return;
  caml_remove_generational_global_root (&data->fn);
  caml_remove_generational_global_root (&data->buf);
  free (data);
}

/* libnbd calls this from inside a libnbd call, which every stub makes
 * in a blocking section: take the runtime lock to touch the roots.
 */
void
mlnbd_closure_free (void *user_data)
{
  caml_leave_blocking_section ();
  mlnbd_closure_release (user_data);
  caml_enter_blocking_section ();
}

/* A callback raised [exn]: libnbd 1.22 prints it and fails the
 * command (the trampoline returns -1); a failed assertion is a bug in
 * the program, and aborts it.  Callback.register_exception names the
 * exception's constructor (its slot), not the exception: an
 * exception with an argument is a block whose field 0 is that slot.
 */
void
mlnbd_callback_raised (const char *cbname, value exn)
{
  CAMLparam1 (exn);
  char *s = caml_format_exception (exn);
  const value *assert_failure = caml_named_value ("mlnbd_assert_failure");

  fprintf (stderr, "libnbd: %s callback raised an OCaml exception: %s\n",
           cbname, s ? s : "(unknown)");
  free (s);
  if (assert_failure != NULL && Is_block (exn) &&
      Field (exn, 0) == *assert_failure)
    abort ();
  CAMLreturn0;
}

/* ---- arguments ---- */

/* A list of flag variants to bits: the i-th constant constructor is
 * bits[i], UNKNOWN n is bit n (as in libnbd 1.22).
 */
uint32_t
mlnbd_flags_val (value list, const uint32_t *bits, size_t n)
{
  uint32_t r = 0;

  for (; list != Val_emptylist; list = Field (list, 1)) {
    value f = Field (list, 0);

    if (Is_long (f)) {
      if ((size_t) Int_val (f) >= n)
        caml_invalid_argument ("NBD: flag out of range");
      r |= bits[Int_val (f)];
    }
    else {
      intnat bit = Long_val (Field (f, 0));

      if (bit < 0 || bit > 31)
        caml_invalid_argument ("NBD: UNKNOWN flag: bit out of range");
      r |= UINT32_C (1) << bit;
    }
  }
  return r;
}

/* Bits to a list of variants, lowest bit first: a bit the binding
 * does not know is UNKNOWN of its position.
 */
value
mlnbd_val_flags (uint32_t flags, const uint32_t *bits, size_t n)
{
  CAMLparam0 ();
  CAMLlocal3 (list, cell, f);
  size_t i;
  int b;

  list = Val_emptylist;
  for (b = 31; b >= 0; b--) {
    uint32_t bit = UINT32_C (1) << b;

    if ((flags & bit) == 0)
      continue;
    for (i = 0; i < n; i++)
      if (bits[i] == bit)
        break;
    if (i < n)
      f = Val_int (i);
    else {
      f = caml_alloc_small (1, 0);
      Field (f, 0) = Val_int (b);
    }
    cell = caml_alloc_small (2, 0);
    Field (cell, 0) = f;
    Field (cell, 1) = list;
    list = cell;
  }
  CAMLreturn (list);
}

int
mlnbd_enum_val (value v, const int *values, size_t n)
{
  if (Is_long (v)) {
    if ((size_t) Int_val (v) >= n)
      caml_invalid_argument ("NBD: enum out of range");
    return values[Int_val (v)];
  }
  return Int_val (Field (v, 0));
}

value
mlnbd_val_enum (int e, const int *values, size_t n)
{
  CAMLparam0 ();
  CAMLlocal1 (rv);
  size_t i;

  for (i = 0; i < n; i++)
    if (values[i] == e)
      CAMLreturn (Val_int (i));
  rv = caml_alloc_small (1, 0);
  Field (rv, 0) = Val_int (e);
  CAMLreturn (rv);
}

size_t
mlnbd_size_val (value v, const char *what)
{
  if (Long_val (v) < 0)
    caml_invalid_argument (what);
  return Long_val (v);
}

uint32_t
mlnbd_uint32_val (value v, const char *what)
{
  int64_t i = Int64_val (v);

  if (i < 0 || i > UINT32_MAX)
    caml_invalid_argument (what);
  return i;
}

void
mlnbd_sockaddr_val (value v, struct sockaddr_storage *ss, socklen_t *len)
{
  union sock_addr_union u;
  socklen_param_type n;

  get_sockaddr (v, &u, &n);
  if ((size_t) n > sizeof *ss)
    caml_invalid_argument ("NBD: socket address too long");
  memset (ss, 0, sizeof *ss);
  memcpy (ss, &u, n);
  *len = n;
}

/* ---- copies out of the heap ---- */

char *
mlnbd_strdup (value s)
{
  size_t n = caml_string_length (s);
  char *r = malloc (n + 1);

  if (r == NULL)
    return NULL;
  memcpy (r, String_val (s), n);
  r[n] = '\0';
  return r;
}

char **
mlnbd_string_list (value list)
{
  size_t n = 0, i;
  value l;
  char **r;

  for (l = list; l != Val_emptylist; l = Field (l, 1))
    n++;
  r = calloc (n + 1, sizeof *r);
  if (r == NULL)
    return NULL;
  for (i = 0, l = list; i < n; i++, l = Field (l, 1)) {
    r[i] = mlnbd_strdup (Field (l, 0));
    if (r[i] == NULL) {
      mlnbd_free_string_list (r);
      return NULL;
    }
  }
  return r;
}

void
mlnbd_free_string_list (char **strs)
{
  size_t i;

  if (strs == NULL)
    return;
  for (i = 0; strs[i] != NULL; i++)
    free (strs[i]);
  free (strs);
}

/* One byte at least, so that an empty buffer is not NULL. */
void *
mlnbd_copy_bytes (value b)
{
  size_t n = caml_string_length (b);
  void *r = malloc (n ? n : 1);

  if (r != NULL)
    memcpy (r, Bytes_val (b), n);
  return r;
}

void *
mlnbd_alloc_bytes (value b)
{
  size_t n = caml_string_length (b);

  return malloc (n ? n : 1);
}

/* ---- callback arguments ---- */

value
mlnbd_u32_array (const uint32_t *a, size_t n)
{
  CAMLparam0 ();
  CAMLlocal2 (rv, v);
  size_t i;

  if (n == 0)
    CAMLreturn (Atom (0));
  rv = caml_alloc (n, 0);
  for (i = 0; i < n; i++) {
    v = caml_copy_int64 (a[i]);
    Store_field (rv, i, v);
  }
  CAMLreturn (rv);
}

value
mlnbd_extent_array (const nbd_extent *a, size_t n)
{
  CAMLparam0 ();
  CAMLlocal4 (rv, e, len, flags);
  size_t i;

  if (n == 0)
    CAMLreturn (Atom (0));
  rv = caml_alloc (n, 0);
  for (i = 0; i < n; i++) {
    len = caml_copy_int64 (a[i].length);
    flags = caml_copy_int64 (a[i].flags);
    e = caml_alloc_small (2, 0);
    Field (e, 0) = len;
    Field (e, 1) = flags;
    Store_field (rv, i, e);
  }
  CAMLreturn (rv);
}
