/* io-poll-woken.c: a command issued from one thread while another
 * waits in nbd_poll leaves at once, and the waiting thread is woken:
 * its nbd_poll returns before the reply (which the server holds for
 * 2 seconds) could have woken it.  In libnbd 1.22 the issuing thread
 * would wait for the lock until the poll timed out (30 s).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <libnbd.h>

#include "test-common.h"

static struct nbd_handle *h;
static pid_t poller_tid;                /* atomic */
static int poll_result = -2;
static int64_t cookie;                  /* atomic: 0 until issued */
static int completed_at_return = -2;

static void *
poller (void *arg)
{
  __atomic_store_n (&poller_tid, (pid_t) syscall (SYS_gettid),
                    __ATOMIC_RELEASE);
  int64_t c;

  poll_result = nbd_poll (h, 30000);
  /* Woken from inside nbd_aio_pread, this thread can get here before
   * the main thread has stored the cookie that call returns; the
   * reply is 2 seconds away, so waiting for the cookie changes nothing.
   */
  while ((c = __atomic_load_n (&cookie, __ATOMIC_ACQUIRE)) == 0)
    sched_yield ();
  completed_at_return = nbd_aio_command_completed (h, c);
  return NULL;
}

/* Whether thread TID is blocked in poll(2) (or ppoll) right now. */
static bool
in_poll (pid_t tid)
{
  char path[64], line[64] = "";
  FILE *fp;
  long nr;

  snprintf (path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
  fp = fopen (path, "r");
  if (fp == NULL)
    return false;
  if (fgets (line, sizeof line, fp) == NULL)
    line[0] = '\0';
  fclose (fp);
  nr = strtol (line, NULL, 10);
  return line[0] && (nr == SYS_poll || nr == SYS_ppoll);
}

int
main (void)
{
  char *argv[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=delay",
                   "memory", "1M", "rdelay=2", NULL };
  char buf[512];
  pthread_t t;
  pid_t tid;
  int i;

  h = connect_command_or_fail (argv);
  CHECK (pthread_create (&t, NULL, poller, NULL) == 0);
  /* Wait until the poller sleeps in poll(2) inside nbd_poll. */
  for (i = 0; i < 1000; ++i) {
    struct timespec ts = { 0, 10000000 };
    tid = __atomic_load_n (&poller_tid, __ATOMIC_ACQUIRE);
    if (tid && in_poll (tid))
      break;
    nanosleep (&ts, NULL);
  }
  CHECK (i < 1000);
  __atomic_store_n (&cookie,
                    nbd_aio_pread (h, buf, sizeof buf, 0,
                                   NBD_NULL_COMPLETION, 0),
                    __ATOMIC_RELEASE);
  CHECK (cookie > 0);
  CHECK (pthread_join (t, NULL) == 0);
  printf ("nbd_poll returned %d; the read was %s then\n", poll_result,
          completed_at_return == 0 ? "still in flight" : "done");
  CHECK (poll_result == 1);
  if (completed_at_return != 0)
    FAIL ("nbd_poll returned only once the reply came: it was not woken "
          "by the new command");
  /* The read itself still completes. */
  while (nbd_aio_command_completed (h, cookie) == 0)
    CHECK (nbd_poll (h, -1) >= 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
