/* io-private-data-threads.c: threads racing nbd_set_private_data get
 * back every value set exactly once as the "old" one.
 *
 * The private data calls skip the handle lock.  A program that stores
 * a pointer there frees whatever nbd_set_private_data hands back, so a
 * value returned twice is a double free, and one never returned is a
 * leak.  Each value set here is unique.  At the end the values that
 * came back (with the last one, still stored) must be exactly the
 * values set plus the initial 0.  The run is long, so that the threads
 * overlap even on a loaded machine; the check is on two sums (one of
 * the values, one of a hash of them), since a value lost and another
 * returned twice move both, and by amounts that cannot cancel out in
 * practice.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_THREADS 4
#define SECONDS 1               /* how long the threads race */

/* Sums over a set of values. */
struct sums {
  uint64_t n, sum, hashed;
};

struct worker {
  struct nbd_handle *h;
  unsigned id;
  struct sums set, old;         /* what it stored, what came back */
};

static pthread_barrier_t start;
static bool stop;               /* atomic: the race is over */

/* A 64-bit mixer (the splitmix64 finaliser): a duplicate and a loss
 * can only cancel out in the sum of these by a 2^-64 accident.
 */
static uint64_t
hash (uint64_t x)
{
  x = (x ^ (x >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

static void
add (struct sums *s, uintptr_t value)
{
  s->n++;
  s->sum += value;
  s->hashed += hash (value);
}

/* Value I of thread ID: unique and never 0. */
static uintptr_t
value (unsigned id, uint64_t i)
{
  return (uintptr_t) (i * NR_THREADS + id + 1);
}

static void *
work (void *arg)
{
  struct worker *w = arg;
  uint64_t i;
  uintptr_t v;

  pthread_barrier_wait (&start);
  for (i = 0; !__atomic_load_n (&stop, __ATOMIC_RELAXED); ++i) {
    v = value (w->id, i);
    add (&w->set, v);
    add (&w->old, nbd_set_private_data (w->h, v));
    /* A get in between races the other threads' sets too: it can only
     * see a value some thread stored.
     */
    if (i % 16 == 0 && nbd_get_private_data (w->h) == 0)
      FAIL ("nbd_get_private_data returned the initial 0 after a set");
  }
  return NULL;
}

int
main (void)
{
  struct nbd_handle *h;
  struct worker workers[NR_THREADS];
  pthread_t threads[NR_THREADS];
  struct sums set = { 0 }, old = { 0 };
  struct timespec ts = { .tv_sec = SECONDS };
  unsigned t;
  int err;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (pthread_barrier_init (&start, NULL, NR_THREADS + 1) == 0);
  for (t = 0; t < NR_THREADS; ++t) {
    memset (&workers[t], 0, sizeof workers[t]);
    workers[t].h = h;
    workers[t].id = t;
    err = pthread_create (&threads[t], NULL, work, &workers[t]);
    if (err != 0)
      FAIL ("pthread_create: %s", strerror (err));
  }
  pthread_barrier_wait (&start);
  nanosleep (&ts, NULL);
  __atomic_store_n (&stop, true, __ATOMIC_RELAXED);
  for (t = 0; t < NR_THREADS; ++t) {
    err = pthread_join (threads[t], NULL);
    if (err != 0)
      FAIL ("pthread_join: %s", strerror (err));
  }

  /* What was stored: the initial 0 and every value set.  What came
   * back: every old value, and the last one, still in the handle.
   */
  add (&set, 0);
  add (&old, nbd_get_private_data (h));
  for (t = 0; t < NR_THREADS; ++t) {
    set.n += workers[t].set.n;
    set.sum += workers[t].set.sum;
    set.hashed += workers[t].set.hashed;
    old.n += workers[t].old.n;
    old.sum += workers[t].old.sum;
    old.hashed += workers[t].old.hashed;
  }
  fprintf (stderr, "%ju values set by %d threads\n", (uintmax_t) set.n - 1,
           NR_THREADS);
  CHECK (old.n == set.n);
  if (old.sum != set.sum || old.hashed != set.hashed)
    FAIL ("the old values returned are not the values set: some came "
          "back twice and others never");

  pthread_barrier_destroy (&start);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
