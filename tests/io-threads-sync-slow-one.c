/* io-threads-sync-slow-one.c: one slow synchronous call does not hold
 * up the other threads on the same handle.
 *
 * The server holds zero requests for 3 seconds and answers the rest at
 * once.  One thread makes a blocking nbd_zero; meanwhile seven others
 * write and read back their own regions through the same handle, byte
 * for byte, and must all be done while the zero is still waiting for
 * its reply.  (On 1.22 the zero's thread holds the handle lock until
 * its reply comes: the others only start after it, and this fails.)
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define WORKERS 7
#define ROUNDS 20
#define LEN 2048                /* two buffers a thread fit the frame limit */
#define REGION (ROUNDS * LEN)   /* each thread's, the zero's first */
#define HANG_SECONDS 30         /* the alarm turns a hang into a failure */

static struct nbd_handle *h;
static bool zero_returned;      /* atomic */

static void *
slow_zero (void *arg)
{
  if (nbd_zero (h, REGION, 0, 0) == -1)
    FAIL ("nbd_zero: %s", nbd_get_error ());
  __atomic_store_n (&zero_returned, true, __ATOMIC_RELEASE);
  return NULL;
}

/* Write each block of this thread's region and read it back. */
static void *
write_and_check (void *arg)
{
  uintptr_t t = (uintptr_t) arg;
  unsigned char wbuf[LEN], rbuf[LEN];
  int i;

  for (i = 0; i < ROUNDS; ++i) {
    uint64_t offset = (t + 1) * REGION + i * LEN;
    memset (wbuf, 'a' + (t * ROUNDS + i) % 26, LEN);
    wbuf[0] = t;
    wbuf[LEN - 1] = i;
    if (nbd_pwrite (h, wbuf, LEN, offset, 0) == -1 ||
        nbd_pread (h, rbuf, LEN, offset, 0) == -1)
      FAIL ("thread %u: %s", (unsigned) t, nbd_get_error ());
    if (memcmp (wbuf, rbuf, LEN) != 0)
      FAIL ("thread %u: block %d read back different", (unsigned) t, i);
  }
  return NULL;
}

/* Wait until the zero request is on the wire: a request more than
 * SENT has left (nbd_aio_in_flight does not count another thread's
 * synchronous command, as in libnbd 1.22).
 */
static void
wait_zero_sent (uint64_t sent)
{
  struct timespec ts = { 0, 10000000 };
  int i;

  for (i = 0; i < 1000; ++i) {
    if (nbd_stats_chunks_sent (h) > sent &&
        !(nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE))
      return;
    nanosleep (&ts, NULL);
  }
  FAIL ("the zero request never left");
}

int
main (void)
{
  const struct bg_server *srv;
  pthread_t zero, workers[WORKERS];
  static const unsigned char zeroes[LEN];
  unsigned char buf[LEN];
  uintptr_t t;
  uint64_t sent;
  int i;

  requires_program ("nbdkit");
  srv = bg_server_start ("--filter=delay memory size=1M delay-zero=3");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);
  /* Something to zero: the region starts non-zero. */
  memset (buf, 'z', LEN);
  for (i = 0; i < ROUNDS; ++i)
    CHECK (nbd_pwrite (h, buf, LEN, i * LEN, 0) == 0);

  bg_server_alarm (HANG_SECONDS);
  sent = nbd_stats_chunks_sent (h);
  CHECK (pthread_create (&zero, NULL, slow_zero, NULL) == 0);
  wait_zero_sent (sent);
  for (t = 0; t < WORKERS; ++t)
    CHECK (pthread_create (&workers[t], NULL, write_and_check,
                           (void *) t) == 0);
  for (t = 0; t < WORKERS; ++t)
    CHECK (pthread_join (workers[t], NULL) == 0);
  if (__atomic_load_n (&zero_returned, __ATOMIC_ACQUIRE))
    FAIL ("the other threads only finished after the slow nbd_zero");
  CHECK (pthread_join (zero, NULL) == 0);
  alarm (0);

  for (i = 0; i < ROUNDS; ++i) {
    CHECK (nbd_pread (h, buf, LEN, i * LEN, 0) == 0);
    if (memcmp (buf, zeroes, LEN) != 0)
      FAIL ("block %d not zeroed", i);
  }
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
