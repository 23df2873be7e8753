/* nbd-c.h: what the C stubs of the OCaml bindings share: the handle
 * in its custom block, the closures, and the conversions between
 * OCaml values and C (handle.c, helpers.c, buffer.c and the
 * generated nbd-c.c).
 */

#ifndef LIBNBD_OCAML_NBD_C_H
#define LIBNBD_OCAML_NBD_C_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define CAML_NAME_SPACE 1
#include <caml/alloc.h>
#include <caml/bigarray.h>
#include <caml/callback.h>
#include <caml/custom.h>
#include <caml/fail.h>
#include <caml/memory.h>
#include <caml/mlvalues.h>
#include <caml/signals.h>

#include <libnbd.h>

/* The handle of an NBD.t.  It lives outside the OCaml heap, where its
 * mutex cannot move, and the custom block points to it.  NBD.close
 * while calls are running on the handle (in other threads, or the
 * call whose callback closes it) only marks it closing: the last of
 * those calls to return closes it.
 */
struct mlnbd_handle {
  pthread_mutex_t lock;         /* guards the fields below */
  struct nbd_handle *h;         /* NULL once closed */
  unsigned users;               /* stubs inside a call on h */
  bool closing;                 /* NBD.close ran: no new calls */
};
#define Handle_val(v) (*((struct mlnbd_handle **) Data_custom_val (v)))

/* One stub's call on a handle, on that stub's C stack.  The calls of
 * a thread form a stack (a callback's call sits on the call that ran
 * the callback), which tells a call on a handle whose lock this
 * thread already holds.
 */
struct mlnbd_call {
  struct mlnbd_handle *mh;
  struct mlnbd_call *outer;
};

/* The user_data of every closure passed to libnbd: the OCaml function
 * (Val_unit for an absent completion) and the Bigarray of the command
 * (Val_unit if none), both generational global roots until libnbd
 * calls .free.
 */
struct mlnbd_closure {
  value fn;
  value buf;
};

/* An optional callback's function, or Val_unit for None. */
#define mlnbd_optional_fn(v) (Is_some (v) ? Some_val (v) : Val_unit)

/* handle.c: each stub brackets its libnbd call by these.
 * mlnbd_call_begin raises NBD.Closed on a closed handle, and NBD.Error
 * (EDEADLK) for a call that takes the handle lock from a callback of
 * that handle; it must come after the conversions that may raise, as
 * every path from it must reach mlnbd_call_end or mlnbd_call_fail
 * (which ends the call and raises the call's NBD.Error).  Ending the
 * last call of a closing handle closes it.
 */
extern struct nbd_handle *mlnbd_call_begin (struct mlnbd_call *call,
                                            value hv, const char *name,
                                            bool locked);
extern void mlnbd_call_end (struct mlnbd_call *call);
extern void mlnbd_call_fail (struct mlnbd_call *call)
  __attribute__ ((noreturn));
extern void mlnbd_raise_error (void) __attribute__ ((noreturn));

/* helpers.c: closures.  mlnbd_closure_new returns NULL when memory
 * runs out; mlnbd_closure_release drops one with the runtime lock
 * held, mlnbd_closure_free is its .free (called by libnbd inside a
 * blocking section).
 */
extern struct mlnbd_closure *mlnbd_closure_new (value fn, value buf);
extern void mlnbd_closure_release (struct mlnbd_closure *data);
extern void mlnbd_closure_free (void *user_data);
extern void mlnbd_callback_raised (const char *cbname, value exn);

/* helpers.c: arguments.  These raise Invalid_argument for a value C
 * cannot take; they allocate nothing.
 */
extern uint32_t mlnbd_flags_val (value list, const uint32_t *bits,
                                 size_t n);
extern value mlnbd_val_flags (uint32_t flags, const uint32_t *bits,
                              size_t n);
extern int mlnbd_enum_val (value v, const int *values, size_t n);
extern value mlnbd_val_enum (int e, const int *values, size_t n);
extern size_t mlnbd_size_val (value v, const char *what);
extern uint32_t mlnbd_uint32_val (value v, const char *what);
extern void mlnbd_sockaddr_val (value v, struct sockaddr_storage *ss,
                                socklen_t *len);

/* helpers.c: copies out of the OCaml heap, which may move during a
 * blocking section.  NULL when memory runs out.
 */
extern char *mlnbd_strdup (value s);
extern char **mlnbd_string_list (value list);
extern void mlnbd_free_string_list (char **strs);
extern void *mlnbd_copy_bytes (value b);
extern void *mlnbd_alloc_bytes (value b);

/* helpers.c: callback arguments. */
extern value mlnbd_u32_array (const uint32_t *a, size_t n);
extern value mlnbd_extent_array (const nbd_extent *a, size_t n);

#endif /* LIBNBD_OCAML_NBD_C_H */
