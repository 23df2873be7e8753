/* io-threads-sync-invisible.c: what the aio calls of one thread see of
 * another thread's synchronous call while it waits for its reply.
 *
 * Thread A waits in nbd_pread (the server holds reads for 2 seconds).
 * Meanwhile the main thread must see nothing of it, as on libnbd 1.22
 * (where A holds the lock, so these calls wait for A to return):
 * nbd_aio_in_flight is 0, nbd_aio_peek_command_completed fails with
 * EINVAL "no commands are in flight", nbd_aio_command_completed with
 * A's cookie (cookies count up: one more than the main thread's last)
 * says 0, as for a cookie never issued; and with a command of its own
 * in flight, the main thread counts 1 and is handed only its own
 * cookie.  A's call then succeeds.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define LEN 4096
#define HANG_SECONDS 60         /* the alarm turns a hang into a failure */

static struct nbd_handle *h;
static int a_result;
static char a_error[256];

static void *
sync_reader (void *arg)
{
  char buf[LEN];

  (void) arg;
  a_result = nbd_pread (h, buf, LEN, 0, 0);
  if (a_result == -1)
    snprintf (a_error, sizeof a_error, "%s", nbd_get_error ());
  return NULL;
}

/* Wait for COOKIE, the main thread's own, checking that peek never
 * names another.
 */
static void
wait_own (int64_t cookie, int64_t foreign)
{
  int64_t c;

  while ((c = nbd_aio_peek_command_completed (h)) == 0)
    CHECK (nbd_poll (h, 1000) != -1);
  if (c != cookie)
    FAIL ("peek returned cookie %" PRIi64 ", expected %" PRIi64
          " (the synchronous call's is %" PRIi64 ")", c, cookie, foreign);
  CHECK (nbd_aio_command_completed (h, foreign) == 0);
  CHECK (nbd_aio_command_completed (h, cookie) == 1);
}

int
main (void)
{
  const struct bg_server *srv;
  static char buf[LEN];
  pthread_t a;
  int64_t mine, theirs;

  requires_program ("nbdkit");
  srv = bg_server_start_with ("--filter=delay memory size=1M rdelay=2",
                              true);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);
  bg_server_alarm (HANG_SECONDS);

  /* A cookie of ours; A's command gets the next one. */
  mine = nbd_aio_pwrite (h, buf, LEN, LEN, NBD_NULL_COMPLETION, 0);
  CHECK (mine > 0);
  while (nbd_aio_command_completed (h, mine) == 0)
    CHECK (nbd_poll (h, 1000) != -1);
  theirs = mine + 1;

  CHECK (pthread_create (&a, NULL, sync_reader, NULL) == 0);
  bg_server_wait_log ("Read", 1);       /* A's request has arrived */

  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_aio_peek_command_completed (h) == -1);
  CHECK_ERROR (EINVAL,
               "nbd_aio_peek_command_completed: no commands are in flight");
  CHECK (nbd_aio_command_completed (h, theirs) == 0);

  /* One of our own beside it (writes are not delayed). */
  mine = nbd_aio_pwrite (h, buf, LEN, LEN, NBD_NULL_COMPLETION, 0);
  CHECK (mine > theirs);
  /* Counted, unless A's poll has completed it already. */
  CHECK (nbd_aio_in_flight (h) == 1 ||
         nbd_aio_peek_command_completed (h) == mine);
  wait_own (mine, theirs);
  CHECK (nbd_aio_peek_command_completed (h) == -1);

  CHECK (pthread_join (a, NULL) == 0);
  alarm (0);
  if (a_result != 0)
    FAIL ("thread A's nbd_pread: %s", a_error);
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
