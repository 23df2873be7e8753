/* errors.c: the thread-local last error and the API call context. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

struct last_error {
  char *error;                  /* message of the last failing call */
  int errnum;                   /* its errno */
  const char *context;          /* "nbd_pread": the call running now */
};

/* One per thread; the message is freed when the thread exits. */
static pthread_key_t errors_key;
static pthread_once_t errors_once = PTHREAD_ONCE_INIT;

static void
free_last_error (void *vp)
{
  struct last_error *e = vp;

  if (e) {
    free (e->error);
    free (e);
  }
}

static void
make_key (void)
{
  pthread_key_create (&errors_key, free_last_error);
}

static struct last_error *
get_last_error (void)
{
  struct last_error *e;

  pthread_once (&errors_once, make_key);
  e = pthread_getspecific (errors_key);
  if (e == NULL) {
    e = calloc (1, sizeof *e);
    if (e == NULL)
      return NULL;
    pthread_setspecific (errors_key, e);
  }
  return e;
}

/* Free the calling thread's state when the library is unloaded. */
__attribute__ ((destructor))
static void
errors_free (void)
{
  struct last_error *e;

  if (pthread_once (&errors_once, make_key) == 0) {
    e = pthread_getspecific (errors_key);
    pthread_setspecific (errors_key, NULL);
    free_last_error (e);
  }
}

void
nbd_internal_set_error_context (const char *context)
{
  struct last_error *e = get_last_error ();

  if (e)
    e->context = context;
}

const char *
nbd_internal_get_error_context (void)
{
  struct last_error *e = get_last_error ();

  return e && e->context ? e->context : "libnbd";
}

/* Takes ownership of ERROR. */
void
nbd_internal_set_last_error (int errnum, char *error)
{
  struct last_error *e = get_last_error ();

  if (e == NULL) {
    free (error);
    return;
  }
  free (e->error);
  e->error = error;
  e->errnum = errnum;
}

/* set_error (0, "%s", TEXT) for a fixed TEXT, without formatting it
 * again when the calling thread's last error is that very message: a
 * loop that asks for completions (nbd_aio_peek_command_completed) gets
 * the same error at every turn.  The message is then left as it was,
 * in the same place, which nbd_get_error allows.
 */
void
nbd_internal_set_error_text (const char *text)
{
  int saved = errno;
  struct last_error *e = get_last_error ();
  const char *ctx;
  size_t lc, lt;
  char *m;

  if (e == NULL)
    goto out;
  ctx = e->context ? e->context : "libnbd";
  lc = strlen (ctx);
  lt = strlen (text);
  if (e->error && e->errnum == 0 && strncmp (e->error, ctx, lc) == 0 &&
      e->error[lc] == ':' && e->error[lc + 1] == ' ' &&
      strcmp (e->error + lc + 2, text) == 0)
    goto out;
  m = malloc (lc + 2 + lt + 1);
  if (m == NULL)
    goto out;
  memcpy (m, ctx, lc);
  memcpy (m + lc, ": ", 2);
  memcpy (m + lc + 2, text, lt + 1);
  free (e->error);
  e->error = m;
  e->errnum = 0;
 out:
  errno = saved;
}

const char *
nbd_get_error (void)
{
  struct last_error *e = get_last_error ();

  return e ? e->error : NULL;
}

int
nbd_get_errno (void)
{
  struct last_error *e = get_last_error ();

  return e ? e->errnum : 0;
}

/* A callback runs with its handle locked by the thread running it, so
 * a call it makes on the same handle cannot take the lock: libnbd's
 * waits for ever there; ours fails (the generated wrappers, lib/api.c).
 */
void
nbd_internal_refuse_nested_call (void)
{
  set_error (EDEADLK, "called from a callback of the same handle, "
             "which this thread has locked");
}
