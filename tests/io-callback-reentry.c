/* io-callback-reentry.c: a callback that calls its own handle gets
 * EDEADLK at once (libnbd waits there for ever on its own lock), the
 * getters that cannot fail answer, nbd_close is refused, and the
 * handle works afterwards.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include <libnbd.h>

#include "test-common.h"

#define REFUSED "called from a callback of the same handle"

static struct nbd_handle *h;
static unsigned completions;
static char inner[512];

/* A refused call: -1, EDEADLK, its own name first. */
static void
check_refused (int64_t r, const char *name)
{
  const char *msg = nbd_get_error ();

  if (r != -1)
    FAIL ("%s from a callback returned %" PRIi64 ", not -1", name, r);
  CHECK_ERROR (EDEADLK, name);
  if (msg == NULL || strstr (msg, REFUSED) == NULL)
    FAIL ("%s: message \"%s\" lacks \"%s\"", name, msg, REFUSED);
}

static int
completion_cb (void *user_data, int *error)
{
  completions++;
  memset (inner, 'x', sizeof inner);
  check_refused (nbd_pread (h, inner, sizeof inner, 0, 0), "nbd_pread");
  /* pread_initialize: a refused read zeroes its buffer, as any failure. */
  for (size_t i = 0; i < sizeof inner; i++)
    if (inner[i] != 0)
      FAIL ("refused nbd_pread left byte %zu of its buffer unzeroed", i);
  check_refused (nbd_get_size (h), "nbd_get_size");
  check_refused (nbd_aio_pread (h, inner, sizeof inner, 0,
                                NBD_NULL_COMPLETION, 0), "nbd_aio_pread");
  /* A getter that cannot fail reads under the caller's hold. */
  if (nbd_get_debug (h) != 0 || nbd_get_pread_initialize (h) != 1)
    FAIL ("getters from a callback gave debug %d, pread_initialize %d",
          nbd_get_debug (h), nbd_get_pread_initialize (h));
  /* Closing would free the handle under the call running us. */
  nbd_close (h);
  CHECK_ERROR (EDEADLK, "nbd_close");
  return 1;
}

/* Completions that nbd_close runs for a command in flight. */
static int
closing_cb (void *user_data, int *error)
{
  struct nbd_handle *closing = user_data;

  completions++;
  check_refused (nbd_pread (closing, inner, sizeof inner, 0, 0),
                 "nbd_pread");
  return 1;
}

static unsigned debug_calls;

static int
debug_cb (void *user_data, const char *context, const char *msg)
{
  if (debug_calls++ == 0)
    check_refused (nbd_get_size (h), "nbd_get_size");
  return 0;
}

static struct nbd_handle *
connect_memory (const char *delay)
{
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=delay",
                   "memory", "1M", (char *) delay, NULL };
  return connect_command_or_fail (args);
}

int
main (void)
{
  char buf[512];
  int64_t cookie;

  requires_program ("nbdkit");
  h = connect_memory ("rdelay=0");

  cookie = nbd_aio_pread (h, buf, sizeof buf, 0,
                          (nbd_completion_callback) {
                            .callback = completion_cb }, 0);
  CHECK (cookie > 0);
  while (completions == 0)
    CHECK (nbd_poll (h, -1) >= 0);
  /* The handle survived its refused close and still works. */
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);

  CHECK (nbd_set_debug_callback (h, (nbd_debug_callback) {
                                   .callback = debug_cb }) == 0);
  CHECK (nbd_set_debug (h, true) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  if (debug_calls == 0)
    FAIL ("the debug callback never ran");
  CHECK (nbd_set_debug (h, false) == 0);
  nbd_close (h);

  /* A read the server holds for 10 s is in flight when nbd_close runs
   * its completion: the completion's call on the handle must fail at
   * once, not run a whole command on a handle being freed.
   */
  struct nbd_handle *slow = connect_memory ("rdelay=10");
  completions = 0;
  CHECK (nbd_aio_pread (slow, buf, sizeof buf, 0,
                        (nbd_completion_callback) {
                          .callback = closing_cb, .user_data = slow },
                        0) > 0);
  CHECK (nbd_aio_in_flight (slow) == 1);
  nbd_close (slow);
  if (completions != 1)
    FAIL ("nbd_close ran %u completions, not 1", completions);
  return 0;
}
