/* conform-queue.c: the life of queued commands, as in libnbd 1.22:
 * a queued command keeps its cookie when the state machine then fails,
 * ABANDON_PENDING counts each command once, nbd_close completes what is
 * pending, and nbd_aio_get_direction and nbd_aio_in_flight are
 * lock-free reads, callable from a callback.
 */
#include <config.h>

#include <signal.h>
#include <sys/wait.h>

#include <libnbd.h>

#include "test-common.h"

static char buf[2 * 1024 * 1024];

struct seen {
  int calls;                    /* completion callback calls */
  int error;                    /* the last *error it saw */
  struct nbd_handle *h;         /* for get_direction from the callback */
  unsigned dir;
  int in_flight;
};

static int
record (void *user_data, int *error)
{
  struct seen *s = user_data;

  s->calls++;
  s->error = *error;
  if (s->h) {                   /* lock-free calls, fine in a callback */
    s->dir = nbd_aio_get_direction (s->h);
    s->in_flight = nbd_aio_in_flight (s->h);
  }
  return 1;                     /* retire */
}

static struct nbd_handle *
connect_to (const char *filter, const char *arg)
{
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", (char *) filter,
                   "memory", "4M", (char *) arg, NULL };
  return connect_command_or_fail (args);
}

static nbd_completion_callback
callback (struct seen *s)
{
  return (nbd_completion_callback) { .callback = record, .user_data = s };
}

/* The server is gone when the command is queued: a cookie, and the
 * error goes to the completion callback.
 */
static void
test_cookie_after_failure (void)
{
  struct nbd_handle *h = connect_to ("-f", NULL);
  struct seen s = { 0 };
  int64_t pid = nbd_get_subprocess_pid (h);

  CHECK (pid > 0);
  CHECK (kill (pid, SIGKILL) == 0);
  CHECK (waitpid (pid, NULL, 0) == pid);
  CHECK (nbd_aio_pwrite (h, buf, 512, 0, callback (&s), 0) > 0);
  CHECK (nbd_aio_is_dead (h) == 1);
  CHECK (s.calls == 1 && s.error != 0);
  nbd_close (h);
  CHECK (s.calls == 1);
}

/* Two big writes while the server is stopped: the second is abandoned
 * with ENOTCONN, and nothing is left in flight.
 */
static void
test_abandon_pending (void)
{
  struct nbd_handle *h = connect_to ("-f", NULL);
  struct seen s = { 0 };

  CHECK (nbd_kill_subprocess (h, SIGSTOP) == 0);
  CHECK (nbd_aio_pwrite (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION,
                         0) > 0);
  CHECK (nbd_aio_pwrite (h, buf, sizeof buf, 0, callback (&s), 0) > 0);
  CHECK (nbd_kill_subprocess (h, SIGCONT) == 0);
  CHECK (nbd_shutdown (h, LIBNBD_SHUTDOWN_ABANDON_PENDING) == 0);
  CHECK (s.calls == 1 && s.error == ENOTCONN);
  CHECK (nbd_aio_in_flight (h) == 0);
  nbd_close (h);
}

/* nbd_close with a read in flight: its completion callback runs once,
 * with an error.
 */
static void
test_close_completes (void)
{
  struct nbd_handle *h = connect_to ("--filter=delay", "rdelay=60");
  struct seen s = { 0 };

  CHECK (nbd_aio_pread (h, buf, 512, 0, callback (&s), 0) > 0);
  CHECK (nbd_kill_subprocess (h, SIGTERM) == 0);
  nbd_close (h);
  CHECK (s.calls == 1 && s.error == ENOTCONN);
}

/* get_direction sends nothing (the second read stays batched), and a
 * completion callback may call it.  The server answers in order, so
 * when the second read completes nothing else is in flight.
 */
static void
test_direction (void)
{
  struct nbd_handle *h = connect_to ("--filter=noparallel",
                                     "serialize=requests");
  struct seen s = { .h = h };
  uint64_t sent;

  CHECK (nbd_aio_pread (h, buf, 512, 0, NBD_NULL_COMPLETION, 0) > 0);
  CHECK (nbd_aio_pread (h, buf, 512, 512, callback (&s), 0) > 0);
  sent = nbd_stats_chunks_sent (h);
  CHECK (nbd_aio_get_direction (h) == LIBNBD_AIO_DIRECTION_BOTH);
  CHECK (nbd_stats_chunks_sent (h) == sent);
  while (s.calls == 0)
    CHECK (nbd_poll (h, -1) != -1);
  CHECK (s.error == 0 && (s.dir & LIBNBD_AIO_DIRECTION_READ));
  CHECK (s.in_flight == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_cookie_after_failure ();
  test_abandon_pending ();
  test_close_completes ();
  test_direction ();
  return 0;
}
