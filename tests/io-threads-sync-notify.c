/* io-threads-sync-notify.c: synchronous calls beside a program's own
 * event loop on the same handle (issue 40 point 1).
 *
 * A loop thread polls the handle's fd itself and calls
 * nbd_aio_notify_read/write, as an application's event loop does; it
 * also issues aio reads and reaps with nbd_aio_peek_command_completed,
 * for the first half of the run only: after that its notifications
 * are all a synchronous reply would wake.  Meanwhile a thread loops
 * synchronous nbd_pread.  The loop's notify
 * may read the reply the synchronous call waits for: that call must
 * still return (it must be woken, not sleep in poll on a reply already
 * taken), and the loop must only ever be handed its own cookies.  On
 * libnbd 1.22 the same program finishes (the synchronous call holds
 * the lock, and the loop's notify waits for it).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define LEN 4096
#define SYNC_READS 500
#define HANG_SECONDS 60         /* the alarm turns a hang into a failure */

static struct nbd_handle *h;
static bool sync_done;          /* atomic */
static int sync_count;          /* atomic: reads done */
static char sync_error[256];
static char loop_error[256];
static unsigned loop_issued, loop_reaped;

static void *
sync_reader (void *arg)
{
  char buf[LEN];
  int i;

  (void) arg;
  for (i = 0; i < SYNC_READS; ++i) {
    if (nbd_pread (h, buf, LEN, 0, 0) == -1) {
      snprintf (sync_error, sizeof sync_error, "read %d: %s", i,
                nbd_get_error ());
      break;
    }
    __atomic_store_n (&sync_count, i + 1, __ATOMIC_RELAXED);
  }
  __atomic_store_n (&sync_done, true, __ATOMIC_RELEASE);
  return NULL;
}

/* Poll the fd once (10 ms at most) and notify.  False on an error. */
static bool
poll_and_notify (int fd)
{
  unsigned dir = nbd_aio_get_direction (h);
  struct pollfd pfd = { .fd = fd };

  if (dir & LIBNBD_AIO_DIRECTION_READ)
    pfd.events |= POLLIN;
  if (dir & LIBNBD_AIO_DIRECTION_WRITE)
    pfd.events |= POLLOUT;
  if (poll (&pfd, 1, 10) == -1 && errno != EINTR) {
    snprintf (loop_error, sizeof loop_error, "poll: %s", strerror (errno));
    return false;
  }
  if ((dir & LIBNBD_AIO_DIRECTION_READ) &&
      (pfd.revents & (POLLIN | POLLHUP | POLLERR)) &&
      nbd_aio_notify_read (h) == -1)
    goto failed;
  if ((pfd.revents & POLLOUT) &&
      (nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE) &&
      nbd_aio_notify_write (h) == -1) {
    /* Each call takes the handle lock on its own, so the reader's
     * synchronous call can finish the send between the direction check
     * and the notify: the state then refuses the event (EINVAL), as
     * libnbd's does.  That refusal is the race, not a failure.
     */
    if (nbd_get_errno () == EINVAL &&
        strstr (nbd_get_error (), "NotifyWrite is invalid in state"))
      return true;
    goto failed;
  }
  return true;

 failed:
  snprintf (loop_error, sizeof loop_error, "notify: %s", nbd_get_error ());
  return false;
}

/* The loop's own reads are distinguished from the reader's by cookie:
 * the loop remembers each one it issued in a bitmap.
 */
static unsigned char issued_map[1 << 16];

/* Retire what peek names, which must be the loop's own. */
static bool
reap_own (void)
{
  int64_t c;

  while ((c = nbd_aio_peek_command_completed (h)) > 0) {
    if (c >= (int64_t) sizeof issued_map * 8 ||
        !(issued_map[c / 8] & (1 << (c % 8)))) {
      snprintf (loop_error, sizeof loop_error,
                "peek returned cookie %" PRIi64 ", not the loop's", c);
      return false;
    }
    issued_map[c / 8] &= ~(1 << (c % 8));
    if (nbd_aio_command_completed (h, c) != 1) {
      snprintf (loop_error, sizeof loop_error, "completing: %s",
                nbd_get_error ());
      return false;
    }
    loop_reaped++;
  }
  return true;
}

static void *
event_loop (void *arg)
{
  static char buf[LEN];
  int fd = nbd_aio_get_fd (h);
  unsigned round = 0;
  int64_t c;

  (void) arg;
  while (!__atomic_load_n (&sync_done, __ATOMIC_ACQUIRE) ||
         loop_reaped < loop_issued) {
    /* An aio read of its own every few rounds, in the first half. */
    if (__atomic_load_n (&sync_count, __ATOMIC_RELAXED) < SYNC_READS / 2 &&
        round++ % 4 == 0) {
      c = nbd_aio_pread (h, buf, LEN, 0, NBD_NULL_COMPLETION, 0);
      if (c == -1 || c >= (int64_t) sizeof issued_map * 8) {
        snprintf (loop_error, sizeof loop_error, "aio_pread: %s",
                  c == -1 ? nbd_get_error () : "too many cookies");
        return NULL;
      }
      issued_map[c / 8] |= 1 << (c % 8);
      loop_issued++;
    }
    if (!poll_and_notify (fd) || !reap_own ())
      return NULL;
  }
  return NULL;
}

int
main (void)
{
  const struct bg_server *srv;
  pthread_t reader, loop;

  requires_program ("nbdkit");
  srv = bg_server_start ("memory size=64M");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);

  bg_server_alarm (HANG_SECONDS);
  CHECK (pthread_create (&loop, NULL, event_loop, NULL) == 0);
  CHECK (pthread_create (&reader, NULL, sync_reader, NULL) == 0);
  CHECK (pthread_join (reader, NULL) == 0);
  CHECK (pthread_join (loop, NULL) == 0);
  alarm (0);

  printf ("%d synchronous reads; the loop issued %u aio reads, reaped %u\n",
          SYNC_READS, loop_issued, loop_reaped);
  if (sync_error[0])
    FAIL ("the synchronous reader: %s", sync_error);
  if (loop_error[0])
    FAIL ("the event loop: %s", loop_error);
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
