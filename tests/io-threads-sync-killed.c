/* io-threads-sync-killed.c: the server dies under 16 threads, each
 * waiting in a synchronous nbd_pread on the same handle.
 *
 * The server holds every read for a minute, so all 16 requests are on
 * the wire (ours sends them together) and read by the server (its log
 * says so) when it is killed: the connection then ends with a close,
 * not a reset, which would give the polling thread ECONNRESET.  Every call
 * must fail, none may wait for a reply that will never come, and each
 * gets the error libnbd 1.22 gives a synchronous call whose command
 * was in flight when the connection died: ENOTCONN, "nbd_pread: read:
 * command failed: ...".  (On 1.22.2, run by hand, one thread gets
 * that; the 15 others never sent their request, waiting for the lock,
 * and fail with EINVAL "invalid state: CLOSED".)
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <pthread.h>
#include <time.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define THREADS 16
#define LEN 4096
/* Shorter than the server's delay, so a call that returns did not get
 * a reply; the alarm only turns a hang into a failure.
 */
#define HANG_SECONDS 30

struct result {
  int r;
  int errnum;
  char msg[256];
};

static struct nbd_handle *h;
static struct result results[THREADS];

static void *
reader (void *arg)
{
  uintptr_t t = (uintptr_t) arg;
  struct result *res = &results[t];
  char buf[LEN];

  res->r = nbd_pread (h, buf, LEN, t * LEN, 0);
  res->errnum = nbd_get_errno ();
  snprintf (res->msg, sizeof res->msg, "%s",
            res->r == -1 ? nbd_get_error () : "");
  return NULL;
}

int
main (void)
{
  const struct bg_server *srv;
  pthread_t threads[THREADS];
  uintptr_t t;
  char expected[256];

  requires_program ("nbdkit");
  srv = bg_server_start_with ("--filter=delay memory size=1M rdelay=60",
                              true);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);

  bg_server_alarm (HANG_SECONDS);
  for (t = 0; t < THREADS; ++t)
    CHECK (pthread_create (&threads[t], NULL, reader, (void *) t) == 0);
  /* All the requests are on the wire once the server has read them
   * (nbd_aio_in_flight does not count other threads' synchronous
   * commands, as in libnbd 1.22).
   */
  bg_server_wait_log ("Read", THREADS);
  bg_server_kill ();
  for (t = 0; t < THREADS; ++t)
    CHECK (pthread_join (threads[t], NULL) == 0);
  alarm (0);

  snprintf (expected, sizeof expected, "nbd_pread: read: command failed: %s",
            strerror (ENOTCONN));

  for (t = 0; t < THREADS; ++t) {
    struct result *res = &results[t];
    printf ("thread %2u: %d, errno %d, %s\n", (unsigned) t, res->r,
            res->errnum, res->msg);
    if (res->r != -1)
      FAIL ("thread %u: nbd_pread succeeded after the server died",
            (unsigned) t);
    if (res->errnum != ENOTCONN)
      FAIL ("thread %u: errno %d (%s), expected ENOTCONN", (unsigned) t,
            res->errnum, strerror (res->errnum));
    if (strcmp (res->msg, expected) != 0)
      FAIL ("thread %u: \"%s\", expected \"%s\"", (unsigned) t, res->msg,
            expected);
  }
  CHECK (nbd_aio_is_dead (h) || nbd_aio_is_closed (h));
  CHECK (nbd_aio_in_flight (h) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
