/* io-threads-sync-parallel.c: synchronous calls from several threads
 * on one handle run in parallel.  Eight threads each make blocking
 * nbd_pread calls against a server that holds every read for 200 ms;
 * a monitor samples the requests sent less the replies received
 * (lock-free statistics; nbd_aio_in_flight does not count synchronous
 * calls' commands, as in libnbd 1.22).  Serialised calls
 * (libnbd 1.22: the waiting thread holds the lock in poll) never show
 * more than one request in flight; ours must show most of the threads'
 * requests out together.  Every read's data is checked.  Meanwhile an
 * nbd_block_status, whose callback must run in its own thread, runs
 * among them.  It runs exclusive (no other thread may poll unlocked
 * until it is done), so it starts only once the readers' first
 * requests are all out, or 2 s have passed: started earlier, it holds
 * back the readers not yet sent, and the overlap measured would be
 * the scheduler's, not the library's.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"

#define THREADS 8
#define READS 3
#define LEN 4096

static struct nbd_handle *h;
static bool done;                      /* atomic */
static int max_in_flight;              /* atomic */
static pthread_t extent_caller;
/* The readers start together, so that on a loaded machine a thread
 * created late cannot make the calls look serialised.
 */
static pthread_barrier_t start;
static bool extent_in_caller = true;   /* atomic */

/* nbdkit pattern: each 8-byte word is its own offset, big-endian. */
static bool
is_pattern (const unsigned char *buf, uint64_t offset)
{
  size_t i;

  for (i = 0; i < LEN; i += 8) {
    uint64_t v = 0;
    int j;
    for (j = 0; j < 8; ++j)
      v = v << 8 | buf[i + j];
    if (v != offset + i)
      return false;
  }
  return true;
}

static void *
reader (void *arg)
{
  uintptr_t t = (uintptr_t) arg;
  unsigned char buf[LEN];
  int i;

  pthread_barrier_wait (&start);
  for (i = 0; i < READS; ++i) {
    uint64_t offset = (t * READS + i) * LEN;
    if (nbd_pread (h, buf, LEN, offset, 0) == -1)
      FAIL ("thread %u: %s", (unsigned) t, nbd_get_error ());
    if (!is_pattern (buf, offset))
      FAIL ("thread %u: wrong data at %" PRIu64, (unsigned) t, offset);
  }
  return NULL;
}

static int
extent (void *user_data, const char *metacontext, uint64_t offset,
        uint32_t *entries, size_t nr_entries, int *error)
{
  if (!pthread_equal (pthread_self (), extent_caller))
    __atomic_store_n (&extent_in_caller, false, __ATOMIC_RELAXED);
  return 0;
}

/* Until every reader has a request out, or 2 s have passed. */
static void
wait_for_readers_out (void)
{
  int ms;

  for (ms = 0; ms < 2000; ++ms) {
    struct timespec ts = { 0, 1000000 };
    if (__atomic_load_n (&max_in_flight, __ATOMIC_RELAXED) >= THREADS)
      return;
    nanosleep (&ts, NULL);
  }
}

static void *
block_status (void *arg)
{
  extent_caller = pthread_self ();
  wait_for_readers_out ();
  if (nbd_block_status (h, LEN, 0,
                        (nbd_extent_callback) { .callback = extent }, 0)
      == -1)
    FAIL ("block status: %s", nbd_get_error ());
  return NULL;
}

/* Requests out: sent first, so a reply to one sent after it cannot
 * make the count too high.
 */
static int
requests_out (uint64_t sent0, uint64_t received0)
{
  uint64_t sent = nbd_stats_chunks_sent (h) - sent0;
  uint64_t received = nbd_stats_chunks_received (h) - received0;

  return sent > received ? (int) (sent - received) : 0;
}

/* The counts once connected, before any thread starts. */
static uint64_t sent0, received0;

static void *
monitor (void *arg)
{
  while (!__atomic_load_n (&done, __ATOMIC_RELAXED)) {
    int n = requests_out (sent0, received0);
    struct timespec ts = { 0, 1000000 };
    if (n > __atomic_load_n (&max_in_flight, __ATOMIC_RELAXED))
      __atomic_store_n (&max_in_flight, n, __ATOMIC_RELAXED);
    nanosleep (&ts, NULL);
  }
  return NULL;
}

int
main (void)
{
  char *argv[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=delay",
                   "pattern", "size=1M", "rdelay=200ms", NULL };
  pthread_t threads[THREADS], mon, bs;
  uintptr_t t;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, argv) == 0);
  sent0 = nbd_stats_chunks_sent (h);
  received0 = nbd_stats_chunks_received (h);
  CHECK (pthread_barrier_init (&start, NULL, THREADS) == 0);
  CHECK (pthread_create (&mon, NULL, monitor, NULL) == 0);
  for (t = 0; t < THREADS; ++t)
    CHECK (pthread_create (&threads[t], NULL, reader, (void *) t) == 0);
  CHECK (pthread_create (&bs, NULL, block_status, NULL) == 0);
  for (t = 0; t < THREADS; ++t)
    CHECK (pthread_join (threads[t], NULL) == 0);
  CHECK (pthread_join (bs, NULL) == 0);
  CHECK (pthread_barrier_destroy (&start) == 0);
  __atomic_store_n (&done, true, __ATOMIC_RELAXED);
  CHECK (pthread_join (mon, NULL) == 0);
  printf ("most requests in flight at once: %d of %d threads "
          "(%" PRIu64 " requests, %" PRIu64 " reply chunks)\n",
          max_in_flight, THREADS, nbd_stats_chunks_sent (h) - sent0,
          nbd_stats_chunks_received (h) - received0);
  if (max_in_flight < THREADS / 2)
    FAIL ("the threads' synchronous calls did not overlap (%d in flight "
          "at most)", max_in_flight);
  if (!__atomic_load_n (&extent_in_caller, __ATOMIC_RELAXED))
    FAIL ("nbd_block_status's callback ran in another thread");
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
