/* debug.c: debug messages, and the calls that control them. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "internal.h"

int
nbd_unlocked_set_debug (struct nbd_handle *h, bool debug)
{
  h->debug = debug;
  return 0;
}

int
nbd_unlocked_get_debug (struct nbd_handle *h)
{
  return h->debug;
}

/* Takes the closure: the previous one is freed first. */
int
nbd_unlocked_set_debug_callback (struct nbd_handle *h,
                                 nbd_debug_callback *debug_callback)
{
  FREE_CALLBACK (h->debug_callback);
  TAKE_CALLBACK (h->debug_callback, debug_callback);
  return 0;
}

int
nbd_unlocked_clear_debug_callback (struct nbd_handle *h)
{
  FREE_CALLBACK (h->debug_callback);
  return 0;
}

/* Send a message to the callback, or to stderr as
 * "libnbd: debug: NAME: CONTEXT: MESSAGE".  Keeps errno.
 */
void
nbd_internal_debug (struct nbd_handle *h, const char *fs, ...)
{
  int err = errno;
  const char *context = nbd_internal_get_error_context ();
  char *msg = NULL;
  va_list args;
  int r;

  va_start (args, fs);
  r = vasprintf (&msg, fs, args);
  va_end (args);
  if (r == -1)
    goto out;
  if (h->debug_callback.callback)
    CALL_CALLBACK (h->debug_callback, context, msg);
  else
    fprintf (stderr, "libnbd: debug: %s: %s: %s\n", h->hname, context, msg);
 out:
  free (msg);
  errno = err;
}
