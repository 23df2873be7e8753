/* diff-threads.c: synchronous calls on one handle beside other threads
 * (issue 40 point 1), as a program sees them: diff.tap runs each
 * scenario on our library, on libnbd 1.22.2 and on 1.24.4, against
 * nbdkit on a Unix socket (bg-server.h), and compares what they print.
 * In 1.22 and 1.24 a synchronous call holds the handle lock until it
 * returns; ours waits with it released, and must look the same.
 *
 * Every scenario has a watchdog: a hang prints "the scenario hung"
 * and ends the client, so that it differs rather than stalls.
 *
 * Usage: diff-threads SCENARIO (see the table at the end).
 */
#include <config.h>

#include <pthread.h>
#include <poll.h>
#include <time.h>

#include "diff-common.h"
#include "bg-server.h"

#define LEN 4096
#define WATCHDOG_SECONDS 30

static struct nbd_handle *h;

static void
hung (int sig)
{
  static const char msg[] = "the scenario hung\n";

  (void) sig;
  if (write (STDOUT_FILENO, msg, sizeof msg - 1) == -1) {
    /* The exit status says it too. */
  }
  bg_server_cleanup ();
  _exit (3);
}

/* Start nbdkit with ARGS (LOGGED: with its log, bg_server_wait_log),
 * connect H to it and arm the watchdog.
 */
static void
start (const char *args, bool logged)
{
  const struct bg_server *srv;

  requires_program ("nbdkit");
  srv = bg_server_start_with (args, logged);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);
  signal (SIGALRM, hung);
  alarm (WATCHDOG_SECONDS);
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

  nanosleep (&ts, NULL);
}

/* A thread's synchronous nbd_pread and what it returned. */
struct sync_read {
  pthread_t thread;
  uint64_t offset;
  int loops;                    /* reads to make, stopping at a failure */
  int done;                     /* reads that succeeded */
  bool finished;                /* atomic: the thread is done */
  int r;                        /* the last call's result */
  int errnum;
  char msg[256];
};

static void *
sync_reader (void *arg)
{
  struct sync_read *s = arg;
  char buf[LEN];

  for (s->done = 0; s->done < s->loops; s->done++) {
    s->r = nbd_pread (h, buf, LEN, s->offset, 0);
    if (s->r == -1) {
      s->errnum = nbd_get_errno ();
      snprintf (s->msg, sizeof s->msg, "%s", nbd_get_error ());
      break;
    }
  }
  __atomic_store_n (&s->finished, true, __ATOMIC_RELEASE);
  return NULL;
}

static void
start_reader (struct sync_read *s, uint64_t offset, int loops)
{
  memset (s, 0, sizeof *s);
  s->offset = offset;
  s->loops = loops;
  CHECK (pthread_create (&s->thread, NULL, sync_reader, s) == 0);
}

static void
say_reader (const char *who, struct sync_read *s)
{
  CHECK (pthread_join (s->thread, NULL) == 0);
  if (s->r == -1)
    say ("%s: %d of %d reads, then -1 errno %s: %s", who, s->done,
         s->loops, errname (s->errnum), s->msg);
  else
    say ("%s: %d of %d reads", who, s->done, s->loops);
}

/* Retire what peek names; FIRST to LAST are this thread's cookies.
 * Returns false, having said so, on another's.
 */
static bool
reap_own (int64_t first, int64_t last, unsigned *reaped)
{
  int64_t c;

  while ((c = nbd_aio_peek_command_completed (h)) > 0) {
    if (c < first || c > last) {
      say ("peek named a cookie this thread never issued");
      return false;
    }
    if (nbd_aio_command_completed (h, c) != 1) {
      say_result ("nbd_aio_command_completed", -1);
      return false;
    }
    (*reaped)++;
  }
  return true;
}

/* Thread A loops nbd_pread; this thread issues nbd_aio_pread, calls
 * nbd_poll (h, 10) and reaps the documented way (the program).
 */
static void
reaper (void)
{
  static char buf[LEN];
  struct sync_read a;
  int64_t first = 0, last = 0, c;
  unsigned issued = 0, reaped = 0;
  bool ok = true;

  start ("memory size=64M", false);
  start_reader (&a, 0, 500);
  while (ok && !__atomic_load_n (&a.finished, __ATOMIC_ACQUIRE)) {
    c = nbd_aio_pread (h, buf, LEN, 0, NBD_NULL_COMPLETION, 0);
    if (c == -1) {
      say_result ("nbd_aio_pread", -1);
      break;
    }
    if (first == 0)
      first = c;
    last = c;
    issued++;
    if (nbd_poll (h, 10) == -1) {
      say_result ("nbd_poll", -1);
      break;
    }
    ok = reap_own (first, last, &reaped);
  }
  while (ok && reaped < issued) {
    if (nbd_poll (h, 1000) == -1) {
      say_result ("nbd_poll", -1);
      break;
    }
    ok = reap_own (first, last, &reaped);
  }
  say_reader ("thread A", &a);
  say ("the reaper retired every command it issued: %s",
       reaped == issued ? "yes" : "no");
  say_result ("nbd_aio_in_flight", nbd_aio_in_flight (h));
  say_result ("nbd_shutdown", nbd_shutdown (h, 0));
}

/* While thread A waits in nbd_pread, what this thread's aio calls
 * say (on 1.22 they wait for the lock until A has returned).
 */
static void
invisible (void)
{
  static char buf[LEN];
  struct sync_read a;
  int64_t mine, theirs, c;

  start ("--filter=delay memory size=1M rdelay=2", true);
  mine = nbd_aio_pwrite (h, buf, LEN, LEN, NBD_NULL_COMPLETION, 0);
  CHECK (mine > 0);
  while (nbd_aio_command_completed (h, mine) == 0)
    CHECK (nbd_poll (h, 1000) != -1);
  theirs = mine + 1;
  start_reader (&a, 0, 1);
  bg_server_wait_log ("Read", 1);
  say_result ("nbd_aio_in_flight", nbd_aio_in_flight (h));
  say_result ("nbd_aio_peek_command_completed",
              nbd_aio_peek_command_completed (h));
  say_result ("nbd_aio_command_completed (A's cookie)",
              nbd_aio_command_completed (h, theirs));
  mine = nbd_aio_pwrite (h, buf, LEN, LEN, NBD_NULL_COMPLETION, 0);
  say ("a write of our own: cookie is A's + %" PRIi64, mine - theirs);
  /* A's poll may have completed it already (ours). */
  say ("nbd_aio_in_flight counts it, or it is done: %s",
       nbd_aio_in_flight (h) == 1 ||
       nbd_aio_peek_command_completed (h) == mine ? "yes" : "no");
  while ((c = nbd_aio_peek_command_completed (h)) == 0)
    CHECK (nbd_poll (h, 1000) != -1);
  say ("peek named: %s", c == mine ? "our write" :
       c == theirs ? "A's read" : "something else");
  say_result ("nbd_aio_command_completed (ours)",
              nbd_aio_command_completed (h, mine));
  say_reader ("thread A", &a);
  say_result ("nbd_aio_command_completed (A's cookie)",
              nbd_aio_command_completed (h, theirs));
  say_result ("nbd_shutdown", nbd_shutdown (h, 0));
}

/* A program's own poll loop (nbd_aio_notify_*) beside thread A's
 * nbd_pread loop.
 */
static void
notify (void)
{
  struct sync_read a;
  int fd, rounds = 0;

  start ("memory size=64M", false);
  fd = nbd_aio_get_fd (h);
  CHECK (fd >= 0);
  start_reader (&a, 0, 200);
  while (!__atomic_load_n (&a.finished, __ATOMIC_ACQUIRE)) {
    unsigned dir = nbd_aio_get_direction (h);
    struct pollfd pfd = { .fd = fd };

    pfd.events = (dir & LIBNBD_AIO_DIRECTION_READ ? POLLIN : 0) |
      (dir & LIBNBD_AIO_DIRECTION_WRITE ? POLLOUT : 0);
    if (poll (&pfd, 1, 10) == -1)
      continue;
    rounds++;
    if ((dir & LIBNBD_AIO_DIRECTION_READ) &&
        (pfd.revents & (POLLIN | POLLHUP | POLLERR)) &&
        nbd_aio_notify_read (h) == -1) {
      say_result ("nbd_aio_notify_read", -1);
      break;
    }
    if ((pfd.revents & POLLOUT) &&
        (nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE) &&
        nbd_aio_notify_write (h) == -1) {
      say_result ("nbd_aio_notify_write", -1);
      break;
    }
  }
  say_reader ("thread A", &a);
  say_result ("nbd_aio_peek_command_completed",
              nbd_aio_peek_command_completed (h));
  say_result ("nbd_shutdown", nbd_shutdown (h, 0));
}

/* nbd_aio_disconnect or nbd_shutdown while three threads wait in
 * nbd_pread; the server drops the reads it holds at NBD_CMD_DISC.
 */
static void
disconnect_common (bool shutdown)
{
  struct sync_read r[3];
  char buf[512];
  int i;

  start ("--filter=delay memory size=1M rdelay=1", true);
  for (i = 0; i < 3; ++i)
    start_reader (&r[i], i * LEN, 1);
  bg_server_wait_log ("Read", 1);
  sleep_ms (200);
  if (shutdown)
    say_result ("nbd_shutdown", nbd_shutdown (h, 0));
  else
    say_result ("nbd_aio_disconnect", nbd_aio_disconnect (h, 0));
  for (i = 0; i < 3; ++i)
    say_reader ("a reader", &r[i]);
  say_result ("nbd_pread after", nbd_pread (h, buf, sizeof buf, 0, 0));
  while (!nbd_aio_is_closed (h) && !nbd_aio_is_dead (h))
    CHECK (nbd_poll (h, 1000) != -1);
  say_state ("at the end", h);
}

static void
disconnect (void)
{
  disconnect_common (false);
}

static void
shutdown_ (void)
{
  disconnect_common (true);
}

/* Thread A's read fails (EIO) while this thread writes and polls. */
static void
error (void)
{
  static char buf[LEN];
  struct sync_read a;
  int64_t c;
  int bad = 0, i;

  start ("--filter=error memory size=1M error-pread=EIO "
         "error-pread-rate=1", true);
  for (i = 0; i < 20; ++i) {
    start_reader (&a, 0, 1);
    bg_server_wait_log ("Read", i + 1);
    c = nbd_aio_pwrite (h, buf, LEN, 0, NBD_NULL_COMPLETION, 0);
    CHECK (c > 0);
    while (nbd_aio_command_completed (h, c) == 0)
      if (nbd_poll (h, 100) == -1)
        bad++;
    if (i == 0)
      say_reader ("thread A", &a);
    else
      CHECK (pthread_join (a.thread, NULL) == 0);
    if (a.r != -1 || a.errnum != EIO)
      bad++;
  }
  say ("rounds where a poll failed or A did not get EIO: %d", bad);
  say_result ("nbd_shutdown", nbd_shutdown (h, 0));
}

/* Eight threads wait in nbd_pread when the server dies. */
static void
killed (void)
{
  static struct sync_read r[8];
  char line[512];
  int i, j, n = 0;
  static char seen[8][512];

  start ("--filter=delay memory size=1M rdelay=60", true);
  for (i = 0; i < 8; ++i)
    start_reader (&r[i], i * LEN, 1);
  bg_server_wait_log ("Read", 1);
  sleep_ms (500);
  bg_server_kill ();
  /* Each distinct outcome once, in a fixed order. */
  for (i = 0; i < 8; ++i) {
    CHECK (pthread_join (r[i].thread, NULL) == 0);
    snprintf (line, sizeof line, "-1 errno %s: %s",
              errname (r[i].errnum), r[i].msg);
    if (r[i].r != -1)
      snprintf (line, sizeof line, "%d", r[i].r);
    for (j = 0; j < n && strcmp (seen[j], line) != 0; ++j)
      ;
    if (j == n)
      snprintf (seen[n++], sizeof seen[0], "%s", line);
  }
  qsort (seen, n, sizeof seen[0],
         (int (*) (const void *, const void *)) strcmp);
  for (j = 0; j < n; ++j)
    say ("a reader: %s", seen[j]);
  say ("every reader returned");
}

static const struct diff_scenario scenarios[] = {
  { "reaper", reaper },
  { "invisible", invisible },
  { "notify", notify },
  { "disconnect", disconnect },
  { "shutdown", shutdown_ },
  { "error", error },
  { "killed", killed },
};

int
main (int argc, char *argv[])
{
  return diff_main (argc, argv, scenarios,
                    sizeof scenarios / sizeof scenarios[0]);
}
