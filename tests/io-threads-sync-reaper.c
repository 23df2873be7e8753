/* io-threads-sync-reaper.c: a thread looping synchronous nbd_pread
 * beside a thread that issues aio reads, polls, and reaps completions
 * the documented way (issue 40 point 1).
 *
 * Thread A reads 4 KiB at offset 0 in a loop.  Thread B issues
 * nbd_aio_pread, calls nbd_poll (h, 10), then retires whatever
 * nbd_aio_peek_command_completed names.  A synchronous call's command
 * must be invisible to B: every cookie B is handed must be one it
 * issued, and every one of A's calls must return (the alarm turns a
 * hang into a failure).  On libnbd 1.22 the same program finishes:
 * there A holds the lock for the whole call.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <inttypes.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define LEN 4096
#define SYNC_READS 2000
#define MAX_AIO 4096            /* cookies thread B may issue */
#define HANG_SECONDS 60         /* generous: ThreadSanitizer is slow */

static struct nbd_handle *h;
static bool a_done;             /* atomic: thread A has finished */
static char a_error[256];       /* A's first failure, or "" */
static char b_error[256];       /* B's first failure, or "" */
static unsigned b_issued, b_reaped;

static void *
sync_reader (void *arg)
{
  char buf[LEN];
  int i;

  (void) arg;
  for (i = 0; i < SYNC_READS; ++i)
    if (nbd_pread (h, buf, LEN, 0, 0) == -1) {
      snprintf (a_error, sizeof a_error, "read %d: %s", i, nbd_get_error ());
      break;
    }
  __atomic_store_n (&a_done, true, __ATOMIC_RELEASE);
  return NULL;
}

/* Is COOKIE one of the N cookies B issued, not yet retired? */
static bool
is_mine (const int64_t *mine, const bool *retired, unsigned n,
         int64_t cookie)
{
  unsigned i;

  for (i = 0; i < n; ++i)
    if (mine[i] == cookie)
      return !retired[i];
  return false;
}

static void
mark_retired (const int64_t *mine, bool *retired, unsigned n, int64_t c)
{
  unsigned i;

  for (i = 0; i < n; ++i)
    if (mine[i] == c)
      retired[i] = true;
}

/* Retire what peek names; false (B's error set) on a foreign cookie. */
static bool
reap (const int64_t *mine, bool *retired, unsigned n)
{
  int64_t c;

  while ((c = nbd_aio_peek_command_completed (h)) > 0) {
    if (!is_mine (mine, retired, n, c)) {
      snprintf (b_error, sizeof b_error,
                "peek returned cookie %" PRIi64 ", which B never issued",
                c);
      return false;
    }
    if (nbd_aio_command_completed (h, c) != 1) {
      snprintf (b_error, sizeof b_error, "completing %" PRIi64 ": %s", c,
                nbd_get_error ());
      return false;
    }
    mark_retired (mine, retired, n, c);
    b_reaped++;
  }
  return true;
}

static void *
aio_reaper (void *arg)
{
  static int64_t mine[MAX_AIO];
  static bool retired[MAX_AIO];
  static char buf[LEN];
  unsigned n = 0;

  (void) arg;
  while (!__atomic_load_n (&a_done, __ATOMIC_ACQUIRE) && n < MAX_AIO) {
    mine[n] = nbd_aio_pread (h, buf, LEN, 0, NBD_NULL_COMPLETION, 0);
    if (mine[n] == -1) {
      snprintf (b_error, sizeof b_error, "aio_pread: %s", nbd_get_error ());
      return NULL;
    }
    n++;
    if (nbd_poll (h, 10) == -1) {
      snprintf (b_error, sizeof b_error, "poll: %s", nbd_get_error ());
      return NULL;
    }
    if (!reap (mine, retired, n))
      return NULL;
  }
  /* Drain B's own. */
  while (b_reaped < n) {
    if (nbd_poll (h, 1000) == -1) {
      snprintf (b_error, sizeof b_error, "poll: %s", nbd_get_error ());
      return NULL;
    }
    if (!reap (mine, retired, n))
      return NULL;
  }
  b_issued = n;
  return NULL;
}

int
main (void)
{
  const struct bg_server *srv;
  pthread_t a, b;

  requires_program ("nbdkit");
  srv = bg_server_start ("memory size=64M");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);

  bg_server_alarm (HANG_SECONDS);
  CHECK (pthread_create (&a, NULL, sync_reader, NULL) == 0);
  CHECK (pthread_create (&b, NULL, aio_reaper, NULL) == 0);
  CHECK (pthread_join (a, NULL) == 0);
  CHECK (pthread_join (b, NULL) == 0);
  alarm (0);

  printf ("A: %d synchronous reads; B: %u aio reads issued, %u reaped\n",
          SYNC_READS, b_issued, b_reaped);
  if (a_error[0])
    FAIL ("thread A: %s", a_error);
  if (b_error[0])
    FAIL ("thread B: %s", b_error);
  if (b_reaped != b_issued || b_issued == 0)
    FAIL ("B reaped %u of %u", b_reaped, b_issued);
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_aio_peek_command_completed (h) == -1);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
