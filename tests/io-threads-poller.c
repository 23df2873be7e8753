/* io-threads-poller.c: one thread drives a handle from its poll loop
 * while four others issue aio writes and reads on it and check the data.
 *
 * The commands are issued from threads other than the one that sends
 * and receives, and their completion callbacks run in the poll thread:
 * the library's queues, the caller's buffers and the callbacks' data
 * all cross threads here (the ThreadSanitizer build runs this).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"
#include "poll-thread.h"

#define NR_WORKERS 4
#define ROUNDS 60               /* of DEPTH writes, then DEPTH reads */
#define DEPTH 8                 /* commands in flight per worker */
#define SLOT (128 * 1024)       /* each command has its own slot */
#define REGION (SLOT * DEPTH)   /* each worker has its own region */
#define MAX_IO (32 * 1024)
#define WAIT_SECONDS 60         /* for completions, before failing */

struct worker {
  struct nbd_handle *h;
  int id;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  unsigned pending;             /* commands whose callback has not run */
  int cmd_error;                /* first error a callback saw */
  char msg[256];                /* why the worker failed, or "" */
  unsigned char wbuf[DEPTH][MAX_IO];
  unsigned char rbuf[DEPTH][MAX_IO];
};

/* Runs in the poll thread, with the handle locked. */
static int
completed (void *user_data, int *error)
{
  struct worker *w = user_data;

  pthread_mutex_lock (&w->lock);
  if (*error != 0 && w->cmd_error == 0)
    w->cmd_error = *error;
  w->pending--;
  pthread_cond_signal (&w->cond);
  pthread_mutex_unlock (&w->lock);
  return 1;                     /* retired: no nbd_aio_command_completed */
}

/* Wait until every command issued has completed.  Returns false if
 * one failed or they take too long, with the reason in W->msg (unless
 * it already holds an earlier one).
 */
static bool
wait_all (struct worker *w)
{
  struct timespec deadline;
  int err = 0;

  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += WAIT_SECONDS;
  pthread_mutex_lock (&w->lock);
  while (w->pending > 0 && err == 0)
    err = pthread_cond_timedwait (&w->cond, &w->lock, &deadline);
  if (w->msg[0] == '\0' && w->pending > 0)
    snprintf (w->msg, sizeof w->msg, "%u commands never completed",
              w->pending);
  else if (w->msg[0] == '\0' && w->cmd_error != 0)
    snprintf (w->msg, sizeof w->msg, "a command failed: %s",
              strerror (w->cmd_error));
  pthread_mutex_unlock (&w->lock);
  return w->msg[0] == '\0';
}

/* Issue one write (or read) of slot K; false if the library refused. */
static bool
issue (struct worker *w, bool is_write, int k, size_t count,
       uint64_t offset)
{
  nbd_completion_callback cb = { .callback = completed, .user_data = w };
  int64_t cookie;

  pthread_mutex_lock (&w->lock);
  w->pending++;
  pthread_mutex_unlock (&w->lock);
  if (is_write)
    cookie = nbd_aio_pwrite (w->h, w->wbuf[k], count, offset, cb, 0);
  else
    cookie = nbd_aio_pread (w->h, w->rbuf[k], count, offset, cb, 0);
  if (cookie == -1) {
    snprintf (w->msg, sizeof w->msg, "%s", nbd_get_error ());
    pthread_mutex_lock (&w->lock);
    w->pending--;
    pthread_mutex_unlock (&w->lock);
    return false;
  }
  return true;
}

/* One round: DEPTH writes in flight at once, then DEPTH reads of the
 * same ranges, then compare.
 */
static bool
round_trip (struct worker *w, int round, unsigned *seed)
{
  size_t count[DEPTH], i;
  uint64_t offset[DEPTH];
  int k;

  for (k = 0; k < DEPTH; ++k) {
    count[k] = 1 + rand_r (seed) % MAX_IO;
    offset[k] = (uint64_t) w->id * REGION + (uint64_t) k * SLOT +
      rand_r (seed) % (SLOT - count[k] + 1);
    for (i = 0; i < count[k]; ++i)
      w->wbuf[k][i] = (w->id << 6) ^ (round * 31 + k * 7 + i);
    if (!issue (w, true, k, count[k], offset[k]))
      return false;
  }
  if (!wait_all (w))
    return false;
  for (k = 0; k < DEPTH; ++k) {
    memset (w->rbuf[k], 0, count[k]);
    if (!issue (w, false, k, count[k], offset[k]))
      return false;
  }
  if (!wait_all (w))
    return false;
  for (k = 0; k < DEPTH; ++k)
    if (memcmp (w->wbuf[k], w->rbuf[k], count[k]) != 0) {
      snprintf (w->msg, sizeof w->msg,
                "round %d, slot %d: read back other data", round, k);
      return false;
    }
  return true;
}

static void *
work (void *arg)
{
  struct worker *w = arg;
  unsigned seed = w->id + 1;
  int round;

  for (round = 0; round < ROUNDS; ++round)
    if (!round_trip (w, round, &seed)) {
      /* Whatever is still in flight points into W: let it land. */
      wait_all (w);
      break;
    }
  return NULL;
}

int
main (void)
{
  struct nbd_handle *h;
  struct poll_thread poller;
  static struct worker workers[NR_WORKERS];
  char size[64];
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   size, NULL };
  int i, err;

  requires_program ("nbdkit");
  snprintf (size, sizeof size, "size=%d", NR_WORKERS * REGION);
  h = connect_command_or_fail (args);

  err = poll_thread_start (&poller, h);
  if (err != 0)
    FAIL ("pthread_create: %s", strerror (err));
  for (i = 0; i < NR_WORKERS; ++i) {
    workers[i].h = h;
    workers[i].id = i;
    pthread_mutex_init (&workers[i].lock, NULL);
    pthread_cond_init (&workers[i].cond, NULL);
    err = pthread_create (&workers[i].thread, NULL, work, &workers[i]);
    if (err != 0)
      FAIL ("pthread_create: %s", strerror (err));
  }
  for (i = 0; i < NR_WORKERS; ++i) {
    err = pthread_join (workers[i].thread, NULL);
    if (err != 0)
      FAIL ("pthread_join: %s", strerror (err));
  }
  err = poll_thread_stop (&poller);
  if (err != 0)
    FAIL ("pthread_join: %s", strerror (err));

  if (poller.error[0])
    FAIL ("poll thread: %s", poller.error);
  for (i = 0; i < NR_WORKERS; ++i)
    if (workers[i].msg[0])
      FAIL ("worker %d: %s", i, workers[i].msg);
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  for (i = 0; i < NR_WORKERS; ++i) {
    pthread_mutex_destroy (&workers[i].lock);
    pthread_cond_destroy (&workers[i].cond);
  }
  exit (EXIT_SUCCESS);
}
