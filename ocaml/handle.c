/* handle.c: the handle of the OCaml bindings, the bracket around every
 * call on it (which makes NBD.close safe while calls run), and the
 * exceptions the stubs raise.
 */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbd-c.h"

#include <caml/version.h>
#include <caml/unixsupport.h>

/* OCaml 5 prefixes the unix library's C functions. */
#if OCAML_VERSION_MAJOR >= 5
#define unix_error_of_code caml_unix_error_of_code
#define code_of_unix_error caml_unix_code_of_unix_error
#endif

/* The calls this thread is inside, innermost first. */
static __thread struct mlnbd_call *thread_calls;

/* NBD.create attaches an OCaml finaliser that closes the handle, as
 * closing runs OCaml code (the .free of each closure, the completions
 * of commands in flight), which this finaliser may not.  By the time
 * the block is swept only the struct is left; a handle somehow never
 * closed is left alone rather than closed here.
 */
static void
finalize_handle (value hv)
{
  struct mlnbd_handle *mh = Handle_val (hv);

  if (mh == NULL || mh->h != NULL)
    return;
  pthread_mutex_destroy (&mh->lock);
  free (mh);
}

static struct custom_operations handle_ops = {
  "org.libguestfs.libnbd.handle",
  finalize_handle,
  custom_compare_default,
  custom_hash_default,
  custom_serialize_default,
  custom_deserialize_default,
  custom_compare_ext_default,
  custom_fixed_length_default,
};

/* The exception NBD.Error (msg, errno), errno None when it is 0. */
static value
error_exception (const char *msg, int err)
{
  CAMLparam0 ();
  CAMLlocal3 (msgv, errv, exn);

  msgv = caml_copy_string (msg ? msg : "libnbd call failed");
  if (err == 0)
    errv = Val_none;
  else
    errv = caml_alloc_some (unix_error_of_code (err));
  exn = caml_alloc_small (3, 0);
  Field (exn, 0) = *caml_named_value ("mlnbd_error");
  Field (exn, 1) = msgv;
  Field (exn, 2) = errv;
  CAMLreturn (exn);
}

/* Raise NBD.Error with the message and errno of the call that just
 * failed in this thread.
 */
void
mlnbd_raise_error (void)
{
  caml_raise (error_exception (nbd_get_error (), nbd_get_errno ()));
}

/* Close [h] for good.  This waits for a subprocess, and runs the
 * closures' .free and the completions of commands still in flight,
 * which take the runtime lock again.
 */
static void
close_now (struct nbd_handle *h)
{
  caml_enter_blocking_section ();
  nbd_close (h);
  caml_leave_blocking_section ();
}

/* Is this thread inside a call on [mh]?  Then it is running one of
 * the handle's callbacks, and holds the handle's lock.
 */
static bool
in_call (struct mlnbd_handle *mh)
{
  struct mlnbd_call *c;

  for (c = thread_calls; c != NULL; c = c->outer)
    if (c->mh == mh)
      return true;
  return false;
}

/* libnbd's handle lock is not recursive: a locked call from a callback
 * of its own handle would wait for ever for the lock its own thread
 * holds.  Raise EDEADLK instead.
 */
static void
raise_deadlock (const char *name)
{
  char msg[256];

  snprintf (msg, sizeof msg,
            "%s: called from a callback of the same handle, which holds "
            "the handle's lock (only the calls that skip the lock may be)",
            name);
  caml_raise (error_exception (msg, EDEADLK));
}

struct nbd_handle *
mlnbd_call_begin (struct mlnbd_call *call, value hv, const char *name,
                  bool locked)
{
  struct mlnbd_handle *mh = Handle_val (hv);
  bool deadlock = locked && in_call (mh);
  struct nbd_handle *h;

  pthread_mutex_lock (&mh->lock);
  h = mh->closing ? NULL : mh->h;
  if (h != NULL && !deadlock)
    mh->users++;
  pthread_mutex_unlock (&mh->lock);
  if (h == NULL)
    caml_raise_with_string (*caml_named_value ("mlnbd_closed"), name);
  if (deadlock)
    raise_deadlock (name);
  call->mh = mh;
  call->outer = thread_calls;
  thread_calls = call;
  return h;
}

/* The stub holds the handle's value as a root, so [mh] is alive. */
void
mlnbd_call_end (struct mlnbd_call *call)
{
  struct mlnbd_handle *mh = call->mh;
  struct nbd_handle *h = NULL;

  thread_calls = call->outer;
  pthread_mutex_lock (&mh->lock);
  mh->users--;
  if (mh->users == 0 && mh->closing) {
    h = mh->h;
    mh->h = NULL;
  }
  pthread_mutex_unlock (&mh->lock);
  if (h != NULL)
    close_now (h);
}

/* The exception is made before the call ends: a close there runs
 * callbacks, whose own calls would replace this thread's error.
 */
void
mlnbd_call_fail (struct mlnbd_call *call)
{
  CAMLparam0 ();
  CAMLlocal1 (exn);

  exn = error_exception (nbd_get_error (), nbd_get_errno ());
  mlnbd_call_end (call);
  caml_raise (exn);
  CAMLnoreturn;
}

/* What a handle weighs for the GC: the memory libnbd holds for it,
 * which libnbd 1.24 tells, and our struct; with an older libnbd.h, a
 * guess of the same order.
 */
static mlsize_t
handle_weight (struct nbd_handle *h)
{
#ifdef LIBNBD_HAVE_NBD_GET_HANDLE_SIZE
  ssize_t r = nbd_get_handle_size (h);

  if (r > 0)
    return (mlsize_t) r + sizeof (struct mlnbd_handle);
#else
  (void) h;
#endif
  return 8192;
}

/* The handle's memory is outside the OCaml heap: the custom block
 * carries its weight, so that the GC, seeing unreachable handles
 * pile up, collects (and so closes) them in time.  The block can only
 * be made once the handle exists; should that allocation raise
 * Out_of_memory, the new handle is lost with it.
 */
value
mlnbd_create (value unitv)
{
  CAMLparam1 (unitv);
  CAMLlocal1 (hv);
  struct mlnbd_handle *mh;

  mh = malloc (sizeof *mh);
  if (mh == NULL)
    caml_raise_out_of_memory ();
  mh->h = nbd_create ();
  if (mh->h == NULL) {
    free (mh);
    mlnbd_raise_error ();
  }
  pthread_mutex_init (&mh->lock, NULL);
  mh->users = 0;
  mh->closing = false;
  hv = caml_alloc_custom_mem (&handle_ops, sizeof mh, handle_weight (mh->h));
  Handle_val (hv) = mh;
  CAMLreturn (hv);
}

/* Close the handle now, or, when calls are running on it (in other
 * threads, or the call whose callback this is), when the last of them
 * returns; either way no new call starts.  Closing again does nothing.
 */
value
mlnbd_close (value hv)
{
  CAMLparam1 (hv);
  struct mlnbd_handle *mh = Handle_val (hv);
  struct nbd_handle *h = NULL;

  pthread_mutex_lock (&mh->lock);
  if (!mh->closing) {
    mh->closing = true;
    h = mh->users == 0 ? mh->h : NULL;
    if (h != NULL)
      mh->h = NULL;
  }
  pthread_mutex_unlock (&mh->lock);
  if (h != NULL)
    close_now (h);
  CAMLreturn (Val_unit);
}

value
mlnbd_errno_of_unix_error (value errv)
{
  return Val_int (code_of_unix_error (errv));
}
