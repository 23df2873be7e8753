/* io-threads-sync-error.c: a synchronous call's failure is its own
 * thread's, even when another thread's nbd_poll handled the reply
 * (issue 40 point 1).
 *
 * The server fails every read with EIO.  Thread A waits in nbd_pread;
 * meanwhile the main thread writes with nbd_aio_pwrite and calls
 * nbd_poll until A has returned, 100 times.  A must get EIO, "nbd_pread:
 * read: command failed"; every nbd_poll of the main thread must succeed
 * and leave its thread-local error as it was: the failure is not the
 * poller's.  When the main thread's poll takes A's reply, A must be
 * woken even if it had released the lock but not yet begun to poll
 * (a wake-up the main thread's next poll drained was lost once, and
 * A slept for ever).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define LEN 4096
#define ROUNDS 100
#define HANG_SECONDS 60         /* the alarm turns a hang into a failure */

static struct nbd_handle *h;
static bool a_done;             /* atomic */
static int a_result, a_errno;
static char a_error[256];

static void *
sync_reader (void *arg)
{
  char buf[LEN];

  (void) arg;
  a_result = nbd_pread (h, buf, LEN, 0, 0);
  a_errno = nbd_get_errno ();
  snprintf (a_error, sizeof a_error, "%s",
            nbd_get_error () ? nbd_get_error () : "");
  __atomic_store_n (&a_done, true, __ATOMIC_RELEASE);
  return NULL;
}

/* One round: A's failing read beside the main thread's write and
 * polls.  ROUND reads were made before.
 */
static void
round_once (int round, char *buf)
{
  char error_before[256];
  int errno_before, polls = 0;
  pthread_t a;
  int64_t c;

  __atomic_store_n (&a_done, false, __ATOMIC_RELEASE);
  CHECK (pthread_create (&a, NULL, sync_reader, NULL) == 0);
  bg_server_wait_log ("Read", round + 1);
  c = nbd_aio_pwrite (h, buf, LEN, 0, NBD_NULL_COMPLETION, 0);
  CHECK (c > 0);
  errno_before = nbd_get_errno ();
  snprintf (error_before, sizeof error_before, "%s",
            nbd_get_error () ? nbd_get_error () : "(none)");
  while (!__atomic_load_n (&a_done, __ATOMIC_ACQUIRE) ||
         nbd_aio_in_flight (h) > 0) {
    if (nbd_poll (h, 100) == -1)
      FAIL ("nbd_poll failed beside the failing read: %s", nbd_get_error ());
    polls++;
  }
  CHECK (pthread_join (a, NULL) == 0);
  if (round == 0)
    printf ("%d polls; thread A: %d, %s\n", polls, a_result, a_error);
  if (strcmp (nbd_get_error () ? nbd_get_error () : "(none)",
              error_before) != 0 || nbd_get_errno () != errno_before)
    FAIL ("the poller's error is \"%s\" (errno %d), was \"%s\" (%d)",
          nbd_get_error (), nbd_get_errno (), error_before, errno_before);
  CHECK (nbd_aio_command_completed (h, c) == 1);
  if (a_result != -1 || a_errno != EIO ||
      strncmp (a_error, "nbd_pread: read: command failed", 31) != 0)
    FAIL ("round %d: thread A: %d, errno %d, \"%s\"; expected EIO", round,
          a_result, a_errno, a_error);
}

int
main (void)
{
  const struct bg_server *srv;
  static char buf[LEN];
  int i;

  requires_program ("nbdkit");
  srv = bg_server_start_with ("--filter=error memory size=1M "
                              "error-pread=EIO error-pread-rate=1", true);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);
  bg_server_alarm (HANG_SECONDS);
  for (i = 0; i < ROUNDS; ++i)
    round_once (i, buf);
  alarm (0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
