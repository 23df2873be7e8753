/* io-threads-shutdown.c: nbd_shutdown while four threads have commands
 * in flight on the handle that a fifth thread drives.
 *
 * Every command issued gets its completion callback exactly once, a
 * read that succeeds has the right data, commands issued after the
 * shutdown are refused with an error naming the call, and nothing
 * hangs.  A command in flight at the shutdown may succeed or fail.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"
#include "poll-thread.h"

#define NR_WORKERS 4
#define DEPTH 8                 /* commands in flight per worker */
#define REGION (1024 * 1024)    /* each worker has its own region */
#define MAX_IO (16 * 1024)
#define COMPLETIONS_FIRST 200   /* before the shutdown */
#define WAIT_SECONDS 60         /* for completions, before failing */

struct worker;

/* One command of a worker, a write or a read, in flight or not. */
struct slot {
  struct worker *w;
  bool is_read;
  uint64_t offset;
  size_t count;
  bool busy;                    /* issued, callback not yet collected */
  bool done;                    /* the callback ran */
  int error;                    /* as the callback saw it */
  unsigned char buf[MAX_IO];
};

struct worker {
  struct nbd_handle *h;
  int id;
  pthread_t thread;
  pthread_mutex_t lock;         /* the slots' busy, done and error */
  pthread_cond_t cond;
  unsigned seed;
  struct slot slots[DEPTH];
  unsigned failed_late;         /* commands that failed at the shutdown */
  int refused_errno;            /* the call refused after the shutdown */
  char refused[256];
  char msg[300];                /* why the worker failed, or "" */
};

static bool shutting_down;      /* atomic: main is about to shut down */
static unsigned completions;    /* atomic: every callback */
static unsigned completions_late; /* atomic: those during the shutdown */

/* The disk holds this pattern throughout: writes write it again. */
static unsigned char
pattern (uint64_t offset)
{
  return (offset >> 9) * 13 + (offset & 511);
}

/* Runs in the poll thread (or in nbd_shutdown), the handle locked. */
static int
completed (void *user_data, int *error)
{
  struct slot *s = user_data;
  struct worker *w = s->w;

  pthread_mutex_lock (&w->lock);
  if (!s->busy || s->done)
    FAIL ("worker %d: a completion callback ran twice", w->id);
  s->done = true;
  s->error = *error;
  __atomic_add_fetch (&completions, 1, __ATOMIC_RELAXED);
  if (__atomic_load_n (&shutting_down, __ATOMIC_ACQUIRE))
    __atomic_add_fetch (&completions_late, 1, __ATOMIC_RELAXED);
  pthread_cond_signal (&w->cond);
  pthread_mutex_unlock (&w->lock);
  return 1;
}

/* Issue the next command of slot S.  False when the library refused
 * it: after the shutdown that is how the worker stops.
 */
static bool
issue (struct worker *w, struct slot *s)
{
  nbd_completion_callback cb = { .callback = completed, .user_data = s };
  int64_t cookie;
  size_t i;

  s->is_read = !s->is_read;
  s->count = 1 + rand_r (&w->seed) % MAX_IO;
  s->offset = (uint64_t) w->id * REGION +
    rand_r (&w->seed) % (REGION - s->count + 1);
  for (i = 0; i < s->count; ++i)
    s->buf[i] = s->is_read ? 0 : pattern (s->offset + i);
  pthread_mutex_lock (&w->lock);
  s->busy = true;
  pthread_mutex_unlock (&w->lock);
  if (s->is_read)
    cookie = nbd_aio_pread (w->h, s->buf, s->count, s->offset, cb, 0);
  else
    cookie = nbd_aio_pwrite (w->h, s->buf, s->count, s->offset, cb, 0);
  if (cookie != -1)
    return true;

  w->refused_errno = nbd_get_errno ();
  snprintf (w->refused, sizeof w->refused, "%s", nbd_get_error ());
  if (!__atomic_load_n (&shutting_down, __ATOMIC_ACQUIRE))
    snprintf (w->msg, sizeof w->msg, "refused before the shutdown: %s",
              w->refused);
  pthread_mutex_lock (&w->lock);
  s->busy = false;
  pthread_mutex_unlock (&w->lock);
  return false;
}

/* Check what slot S's command did.  False on a failure of the test. */
static bool
check (struct worker *w, struct slot *s)
{
  size_t i;

  if (s->error != 0) {
    if (!__atomic_load_n (&shutting_down, __ATOMIC_ACQUIRE)) {
      snprintf (w->msg, sizeof w->msg, "a command failed: %s",
                strerror (s->error));
      return false;
    }
    w->failed_late++;
    return true;
  }
  for (i = 0; s->is_read && i < s->count; ++i)
    if (s->buf[i] != pattern (s->offset + i)) {
      snprintf (w->msg, sizeof w->msg, "read wrong data at offset %ju",
                (uintmax_t) (s->offset + i));
      return false;
    }
  return true;
}

/* Wait for one or more of the busy slots to complete, and mark them
 * collected in READY.  Returns how many, 0 if none is busy, or -1 when
 * they take too long.
 */
static int
collect (struct worker *w, bool ready[DEPTH])
{
  struct timespec deadline;
  int k, n, busy, err = 0;

  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += WAIT_SECONDS;
  pthread_mutex_lock (&w->lock);
  for (;;) {
    for (k = n = busy = 0; k < DEPTH; ++k) {
      busy += w->slots[k].busy;
      ready[k] = w->slots[k].busy && w->slots[k].done;
      if (ready[k]) {
        w->slots[k].busy = w->slots[k].done = false;
        n++;
      }
    }
    if (n > 0 || busy == 0 || err != 0)
      break;
    err = pthread_cond_timedwait (&w->cond, &w->lock, &deadline);
  }
  pthread_mutex_unlock (&w->lock);
  if (n == 0 && busy > 0) {
    snprintf (w->msg, sizeof w->msg, "%d commands never completed", busy);
    return -1;
  }
  return n;
}

static void *
work (void *arg)
{
  struct worker *w = arg;
  bool ready[DEPTH], stop = false;
  int k, n;

  for (k = 0; k < DEPTH && !stop; ++k) {
    w->slots[k].w = w;
    w->slots[k].is_read = true; /* so the first command is a write */
    stop = !issue (w, &w->slots[k]);
  }
  /* After a refusal (or a failure), only collect what is in flight. */
  while ((n = collect (w, ready)) > 0)
    for (k = 0; k < DEPTH; ++k) {
      if (!ready[k])
        continue;
      if (!check (w, &w->slots[k]))
        stop = true;
      if (!stop)
        stop = !issue (w, &w->slots[k]);
    }
  return NULL;
}

/* Sleep until the workers have done some work. */
static void
wait_for_completions (unsigned n)
{
  struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
  int loops;

  for (loops = 0; __atomic_load_n (&completions, __ATOMIC_RELAXED) < n;
       ++loops) {
    if (loops > WAIT_SECONDS * 100)
      FAIL ("only %u commands completed before the shutdown",
            __atomic_load_n (&completions, __ATOMIC_RELAXED));
    nanosleep (&ts, NULL);
  }
}

/* Start the server and write the pattern over the whole disk. */
static struct nbd_handle *
connect_and_fill (void)
{
  static unsigned char buf[REGION];
  char size[64];
  char *args[] = { "nbdkit", "-s", "--exit-with-parent",
                   "--filter=delay", "memory", size,
                   "rdelay=10ms", "wdelay=10ms", NULL };
  struct nbd_handle *h;
  uint64_t i;
  int r;

  snprintf (size, sizeof size, "size=%d", NR_WORKERS * REGION);
  h = connect_command_or_fail (args);
  for (r = 0; r < NR_WORKERS; ++r) {
    for (i = 0; i < REGION; ++i)
      buf[i] = pattern ((uint64_t) r * REGION + i);
    CHECK (nbd_pwrite (h, buf, REGION, (uint64_t) r * REGION, 0) == 0);
  }
  return h;
}

int
main (void)
{
  struct nbd_handle *h;
  struct poll_thread poller;
  static struct worker workers[NR_WORKERS];
  struct worker *w;
  int64_t in_flight;
  unsigned failed_late = 0;
  int i, err;

  requires_program ("nbdkit");
  h = connect_and_fill ();
  err = poll_thread_start (&poller, h);
  if (err != 0)
    FAIL ("pthread_create: %s", strerror (err));
  for (i = 0; i < NR_WORKERS; ++i) {
    w = &workers[i];
    w->h = h;
    w->id = i;
    w->seed = i + 1;
    pthread_mutex_init (&w->lock, NULL);
    pthread_cond_init (&w->cond, NULL);
    err = pthread_create (&w->thread, NULL, work, w);
    if (err != 0)
      FAIL ("pthread_create: %s", strerror (err));
  }

  wait_for_completions (COMPLETIONS_FIRST);
  __atomic_store_n (&shutting_down, true, __ATOMIC_RELEASE);
  in_flight = nbd_aio_in_flight (h);
  CHECK (nbd_shutdown (h, 0) == 0);
  CHECK (nbd_aio_is_closed (h));

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

  for (i = 0; i < NR_WORKERS; ++i) {
    w = &workers[i];
    if (w->msg[0])
      FAIL ("worker %d: %s", i, w->msg);
    /* Each worker stopped because a call was refused, as it should be:
     * EINVAL, either while NBD_CMD_DISC was queued or once the handle
     * had closed (as libnbd 1.22 refuses both).
     */
    if (w->refused_errno != EINVAL ||
        (strncmp (w->refused, "nbd_aio_pread: ", 15) != 0 &&
         strncmp (w->refused, "nbd_aio_pwrite: ", 16) != 0) ||
        (strstr (w->refused, "after NBD_CMD_DISC") == NULL &&
         strstr (w->refused, "invalid state: CLOSED") == NULL))
      FAIL ("worker %d: refused with errno %d and \"%s\"", i,
            w->refused_errno, w->refused);
    failed_late += w->failed_late;
  }
  CHECK (nbd_aio_in_flight (h) == 0);
  fprintf (stderr, "%u completions, %jd in flight at the shutdown, "
           "%u completed during it, %u of those failed\n",
           __atomic_load_n (&completions, __ATOMIC_RELAXED),
           (intmax_t) in_flight,
           __atomic_load_n (&completions_late, __ATOMIC_RELAXED),
           failed_late);
  /* The server delays each reply, so the shutdown met commands. */
  CHECK (__atomic_load_n (&completions_late, __ATOMIC_RELAXED) > 0);
  nbd_close (h);
  for (i = 0; i < NR_WORKERS; ++i) {
    pthread_mutex_destroy (&workers[i].lock);
    pthread_cond_destroy (&workers[i].cond);
  }
  exit (EXIT_SUCCESS);
}
