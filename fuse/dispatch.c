/* dispatch.c: one thread per NBD connection carries out the requests
 * of the FUSE threads.
 *
 * A FUSE thread puts a request on the queue of a connection (chosen in
 * turn), wakes that connection's thread through an eventfd and sleeps
 * until the request is done.  Only the connection's thread touches its
 * handle: it issues every queued request as an asynchronous command,
 * so many are in flight at once, and polls the socket and the eventfd
 * together with nbd_poll2.  The handle's lock is never fought over.
 *
 * With --reconnect a request is on the connection's in-flight list
 * until it is done, so that a connection found dead can close and
 * issue again on the new one (outage.c) what it had not got replies
 * for.  Acknowledged writes go to the journal, and flushes drop what
 * they made durable.  Once unmounted, each connection flushes before
 * its thread exits, so that nbdfuse exits 0 only with every write the
 * server acknowledged durable there.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "nbdfuse.h"

struct connection;

struct request {
  enum op op;
  void *buf;                    /* OP_READ fills it, OP_WRITE only reads it */
  uint64_t count, offset;
  struct connection *conn;
  int error;                    /* 0 or an errno, once done */
  bool done;                    /* under conn->lock */
  pthread_cond_t cond;          /* signalled when done */
  struct request *next;         /* in the queue, or the in-flight list */
  struct request *prev;         /* in the in-flight list */
  double issued;                /* when, for the request timeout */
  uint64_t flush_mark;          /* OP_FLUSH: see journal_mark */
};

struct connection {
  size_t index;
  struct nbd_handle *nbd;       /* NULL once the connection failed */
  pthread_t thread;
  int wake_fd;                  /* eventfd: requests were queued */
  size_t in_flight;             /* commands issued, not done yet */
  pthread_mutex_t lock;         /* guards the fields below */
  struct request *queue;        /* to be issued, oldest first */
  struct request **queue_tail;
  bool dead;                    /* failed: new requests fail at once */
  bool grace_started;           /* only the connection's thread: */
  struct timespec grace_start;  /* see grace_left */
  bool stop;                    /* unmounted: finish and exit */
  /* --reconnect, only the connection's thread: */
  struct request *oldest, *newest; /* in flight, in the order issued */
  bool lost;                    /* found dead: join the outage */
  bool closing;                 /* replies that fail now are kept */
  char why[256];                /* what lost it */
  bool final_sent;              /* final_flush issued (see last_flush) */
  struct request final_flush;   /* the flush once unmounted */
};

static struct connection *conns;
static size_t nr_conns;

static bool
reconnecting (void)
{
  return nf.policy.window > 0;
}

static void
track (struct connection *conn, struct request *req)
{
  req->issued = reconnect_now ();
  req->next = NULL;
  req->prev = conn->newest;
  if (conn->newest)
    conn->newest->next = req;
  else
    conn->oldest = req;
  conn->newest = req;
}

static void
untrack (struct connection *conn, struct request *req)
{
  if (req->prev)
    req->prev->next = req->next;
  else
    conn->oldest = req->next;
  if (req->next)
    req->next->prev = req->prev;
  else
    conn->newest = req->prev;
}

/* The connection died under REQ: it stays in flight, to be issued
 * again after the reconnect.
 */
static void
lose (struct connection *conn, const char *why)
{
  if (!conn->lost && why)
    snprintf (conn->why, sizeof conn->why, "%s", why);
  conn->lost = true;
}

/* Called with REQ's connection lock not held, by the connection's
 * thread.  After the unlock the waiter may return and REQ is gone.
 */
static void
finish (struct request *req, int error)
{
  struct connection *conn = req->conn;

  pthread_mutex_lock (&conn->lock);
  req->error = error;
  req->done = true;
  pthread_cond_signal (&req->cond);
  pthread_mutex_unlock (&conn->lock);
}

static const char *
op_name (enum op op)
{
  switch (op) {
  case OP_READ: return "read";
  case OP_WRITE: return "write";
  case OP_FLUSH: return "flush";
  case OP_PUNCH: return "zero (may punch a hole)";
  case OP_ZERO: return "zero";
  }
  return "?";
}

/* REQ succeeded: keep the data of a write until a flush makes it
 * durable, and drop what a flush did.
 */
static void
note_done (struct request *req)
{
  if (!journal_on ())
    return;
  switch (req->op) {
  case OP_READ:
    break;
  case OP_WRITE: case OP_PUNCH: case OP_ZERO:
    journal_add (req->op, req->buf, req->count, req->offset);
    break;
  case OP_FLUSH:
    journal_flushed (req->flush_mark);
    break;
  }
}

/* Set by abandon_connections, in a signal handler: nbdfuse is
 * exiting, and replies still awaited get a short grace.  Atomic, as
 * the connection threads read it (lock-free atomics are safe in a
 * signal handler).
 */
static int abandoning;

static bool
connections_abandoned (void)
{
  return __atomic_load_n (&abandoning, __ATOMIC_ACQUIRE);
}

/* The completion callback, run by the connection's thread inside the
 * library.  Returning 1 retires the command.
 */
static int
completed (void *vp, int *error)
{
  struct request *req = vp;
  struct connection *conn = req->conn;

  if (reconnecting ()) {
    /* Not the handle: its lock is held while we are called. */
    if (!connections_abandoned () &&
        (conn->closing || reconnect_is_connection_error (NULL, *error))) {
      lose (conn, strerror (*error));
      return 1;
    }
    untrack (conn, req);
    if (*error == 0)
      note_done (req);
  }
  conn->in_flight--;
  if (*error != 0)
    fprintf (stderr, "nbdfuse: %s of %" PRIu64 " bytes at offset %" PRIu64
             ": %s\n", op_name (req->op), req->count, req->offset,
             strerror (*error));
  finish (req, *error);
  return 1;
}

static int64_t
start_command (struct nbd_handle *h, struct request *req)
{
  nbd_completion_callback cb = { .callback = completed, .user_data = req };

  switch (req->op) {
  case OP_READ:
    return nbd_aio_pread (h, req->buf, req->count, req->offset, cb, 0);
  case OP_WRITE:
    return nbd_aio_pwrite (h, req->buf, req->count, req->offset, cb, 0);
  case OP_FLUSH:
    return nbd_aio_flush (h, cb, 0);
  case OP_PUNCH:
    return nbd_aio_zero (h, req->count, req->offset, cb, 0);
  case OP_ZERO:
    return nbd_aio_zero (h, req->count, req->offset, cb,
                         LIBNBD_CMD_FLAG_NO_HOLE);
  }
  abort ();                     /* operations.c asks only for these */
}

/* Close the handle: that fails whatever is still in flight (the
 * callbacks run with an error), and from now on requests fail at once
 * with EIO, without a message each.
 */
static void
drop_connection (struct connection *conn)
{
  pthread_mutex_lock (&conn->lock);
  conn->dead = true;
  pthread_mutex_unlock (&conn->lock);
  nbd_close (conn->nbd);
  conn->nbd = NULL;
  conn->in_flight = 0;
}

/* The handle failed: say so once.  WHY may be NULL. */
static void
fail_connection (struct connection *conn, const char *why)
{
  fprintf (stderr, "nbdfuse: connection %zu to the server was lost%s%s\n",
           conn->index, why ? ": " : "", why ? why : "");
  drop_connection (conn);
}

/* The library may find the connection broken inside any call, even
 * one that succeeds (a command it fails at once still gets a cookie),
 * and the handle is then dead for good.
 */
static bool
is_lost (struct nbd_handle *h)
{
  return nbd_aio_is_dead (h) == 1 || nbd_aio_is_closed (h) == 1;
}

/* The handle was found dead: with --reconnect the outage is joined
 * before anything more is issued.
 */
static void
connection_died (struct connection *conn, const char *why)
{
  if (reconnecting ())
    lose (conn, why);
  else
    fail_connection (conn, why);
}

/* Issue REQ; if it cannot be issued it is done, with an error, or
 * (with --reconnect, the connection being dead) waits in flight.
 */
static void
issue (struct connection *conn, struct request *req)
{
  int err;

  if (conn->nbd == NULL) {
    finish (req, EIO);
    return;
  }
  if (reconnecting ()) {
    track (conn, req);
    if (req->op == OP_FLUSH)
      req->flush_mark = journal_mark ();
  }
  /* The reply may come, and the callback run, before the call returns. */
  conn->in_flight++;
  if (start_command (conn->nbd, req) >= 0) {
    if (is_lost (conn->nbd))
      connection_died (conn, NULL);
    return;
  }
  conn->in_flight--;
  err = nbd_get_errno ();
  if (is_lost (conn->nbd)) {
    if (!reconnecting ())
      finish (req, EIO);
    connection_died (conn, nbd_get_error ());
    return;
  }
  if (reconnecting ())
    untrack (conn, req);
  fprintf (stderr, "nbdfuse: %s\n", nbd_get_error ());
  finish (req, err != 0 ? err : EIO);
}

#define GRACE_MS 1000

/* Milliseconds of the grace left, which starts when CONN first sees
 * the signal.
 */
static int
grace_left (struct connection *conn)
{
  struct timespec now;
  int64_t ms;

  clock_gettime (CLOCK_MONOTONIC, &now);
  if (!conn->grace_started) {
    conn->grace_started = true;
    conn->grace_start = now;
  }
  ms = (now.tv_sec - conn->grace_start.tv_sec) * 1000 +
    (now.tv_nsec - conn->grace_start.tv_nsec) / 1000000;
  return ms >= GRACE_MS ? 0 : GRACE_MS - ms;
}

/* Milliseconds until the oldest request in flight has waited the
 * request timeout (0: it has), or -1: no timeout.
 */
static int
timeout_left (struct connection *conn)
{
  double left;

  if (!reconnecting () || nf.policy.request_timeout == 0 ||
      conn->oldest == NULL)
    return -1;
  left = conn->oldest->issued + nf.policy.request_timeout - reconnect_now ();
  return left <= 0 ? 0 : (int) (left * 1000) + 1;
}

/* A server that keeps a request unanswered that long is taken for
 * dead (a half-open connection looks just like that).  Its socket is
 * shut first so that nothing more is read from it.
 */
static bool
timed_out (struct connection *conn)
{
  char why[64];

  if (timeout_left (conn) != 0)
    return false;
  reconnect_break (conn->nbd);
  snprintf (why, sizeof why, "no reply for %g s",
            nf.policy.request_timeout);
  lose (conn, why);
  return true;
}

static int
min_timeout (int a, int b)
{
  if (a == -1)
    return b;
  if (b == -1)
    return a;
  return a < b ? a : b;
}

/* Sleep until a reply can be read, a request sent or new requests
 * are queued; after the signal, at most until the grace is over.
 */
static void
wait_for_server (struct connection *conn)
{
  int timeout = timeout_left (conn);

  if (timed_out (conn))
    return;
  if (__atomic_load_n (&abandoning, __ATOMIC_ACQUIRE)) {
    if (grace_left (conn) == 0) {
      fprintf (stderr, "nbdfuse: connection %zu: gave up waiting for "
               "replies at exit (%zu in flight)\n",
               conn->index, conn->in_flight);
      drop_connection (conn);
      return;
    }
    timeout = min_timeout (timeout, grace_left (conn));
  }
  if (nbd_poll2 (conn->nbd, conn->wake_fd, timeout) == -1)
    connection_died (conn, nbd_get_error ());
  else if (is_lost (conn->nbd))
    connection_died (conn, NULL);
  else
    timed_out (conn);
}

/* Sleep until there is work.  Without commands in flight only the
 * eventfd matters.
 */
static void
wait_for_work (struct connection *conn)
{
  struct pollfd pfd = { .fd = conn->wake_fd, .events = POLLIN };
  uint64_t counter;

  if (conn->in_flight > 0)
    wait_for_server (conn);
  else {
    while (poll (&pfd, 1, -1) == -1 && errno == EINTR)
      ;
  }
  /* Non-blocking: EAGAIN when nobody woke us. */
  if (read (conn->wake_fd, &counter, sizeof counter) == -1 &&
      errno != EAGAIN)
    perror ("nbdfuse: read: eventfd");
}

/* Fail every request in LIST (linked by next) with EIO. */
static void
fail_list (struct request *list)
{
  struct request *next;

  for (; list != NULL; list = next) {
    next = list->next;          /* LIST is gone once finished */
    finish (list, EIO);
  }
}

static void
wake (struct connection *conn)
{
  uint64_t one = 1;

  if (write (conn->wake_fd, &one, sizeof one) == -1)
    perror ("nbdfuse: write: eventfd");
}

/* An outage: every connection thread must close its handle and join. */
static void
wake_all (void)
{
  size_t i;

  for (i = 0; i < nr_conns; ++i)
    wake (&conns[i]);
}

/* --reconnect: close the handle, keeping what was in flight, wait
 * for the outage to be over, and issue it again on the new handle.
 * If there is none, it all fails, and so does every later request.
 */
static void
rejoin (struct connection *conn)
{
  struct request *retry, *queued, *next;

  if (conn->nbd != NULL) {
    conn->closing = true;       /* the callbacks keep their requests */
    nbd_close (conn->nbd);
    conn->closing = false;
  }
  retry = conn->oldest;
  conn->oldest = conn->newest = NULL;
  conn->in_flight = 0;
  if (outage_raise (conn->index,
                    conn->lost && conn->why[0] ? conn->why : NULL))
    wake_all ();                /* each closes its handle and joins */
  conn->nbd = outage_join (conn->index);
  conn->lost = false;
  conn->why[0] = '\0';
  if (conn->nbd == NULL) {
    pthread_mutex_lock (&conn->lock);
    conn->dead = true;
    queued = conn->queue;
    conn->queue = NULL;
    conn->queue_tail = &conn->queue;
    pthread_mutex_unlock (&conn->lock);
    fail_list (retry);
    fail_list (queued);
    return;
  }
  for (; retry != NULL; retry = next) {
    next = retry->next;         /* issue relinks it */
    issue (conn, retry);
  }
}

/* With --reconnect, once unmounted and with nothing else in flight:
 * flush the connection, as a request of its own thread, so that a
 * break during it is survived like any other (the journal replayed
 * and the flush sent again).  Whether it is yet to be waited for.
 */
static bool
last_flush (struct connection *conn)
{
  struct request *req = &conn->final_flush;

  if (!journal_on () || conn->nbd == NULL)
    return false;
  if (!conn->final_sent) {
    conn->final_sent = true;
    req->op = OP_FLUSH;
    req->conn = conn;
    issue (conn, req);
  }
  return !req->done;            /* done only by this thread */
}

/* Whether the connection's last flush was due and did not succeed. */
static bool
last_flush_failed (struct connection *conn)
{
  return journal_on () &&
    (!conn->final_sent || !conn->final_flush.done ||
     conn->final_flush.error != 0);
}

static void *
connection_thread (void *vp)
{
  struct connection *conn = vp;
  struct request *list, *next;
  bool stop;

  for (;;) {
    if (reconnecting () && (conn->lost || outage_raised ())) {
      rejoin (conn);
      continue;
    }
    pthread_mutex_lock (&conn->lock);
    list = conn->queue;
    conn->queue = NULL;
    conn->queue_tail = &conn->queue;
    stop = conn->stop;
    pthread_mutex_unlock (&conn->lock);

    for (; list != NULL; list = next) {
      next = list->next;        /* LIST may be gone once issued */
      issue (conn, list);
    }
    if (stop && conn->in_flight == 0 && !conn->lost &&
        !(reconnecting () && last_flush (conn))) {
      if (reconnecting ())
        outage_leave ();
      return NULL;
    }
    wait_for_work (conn);
  }
}

static void
init_connection (struct connection *conn, size_t i, struct nbd_handle *h)
{
  int err;

  conn->index = i;
  conn->nbd = h;
  conn->queue_tail = &conn->queue;
  pthread_cond_init (&conn->final_flush.cond, NULL);
  conn->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (conn->wake_fd == -1) {
    perror ("nbdfuse: eventfd");
    exit (EXIT_FAILURE);
  }
  pthread_mutex_init (&conn->lock, NULL);
  err = pthread_create (&conn->thread, NULL, connection_thread, conn);
  if (err != 0) {
    errno = err;
    perror ("nbdfuse: pthread_create");
    exit (EXIT_FAILURE);
  }
}

/* Start a thread for each of the N connected HANDLES (taken over).
 * The threads block the signals that end the FUSE loop, so those
 * reach a thread that can act on them.
 */
void
start_connections (struct nbd_handle **handles, size_t n)
{
  sigset_t block, old;
  size_t i;

  conns = calloc (n, sizeof *conns);
  if (conns == NULL) {
    perror ("nbdfuse: calloc");
    exit (EXIT_FAILURE);
  }
  nr_conns = n;
  if (reconnecting ())
    outage_init (n);
  sigemptyset (&block);
  sigaddset (&block, SIGINT);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGHUP);
  pthread_sigmask (SIG_BLOCK, &block, &old);
  for (i = 0; i < n; ++i)
    init_connection (&conns[i], i, handles[i]);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
}

static struct connection *
next_connection (void)
{
  static size_t counter;

  return &conns[__atomic_fetch_add (&counter, 1, __ATOMIC_RELAXED) %
                nr_conns];
}

static bool
is_write (enum op op)
{
  return op == OP_WRITE || op == OP_PUNCH || op == OP_ZERO;
}

/* Carry out one request and wait for it: 0 or -errno, as FUSE wants. */
int
submit (enum op op, void *buf, uint64_t count, uint64_t offset)
{
  struct connection *conn = next_connection ();
  struct request req = {
    .op = op, .buf = buf, .count = count, .offset = offset, .conn = conn,
  };
  bool was_empty;
  int r;

  /* The journal is bounded: what a flush makes durable leaves it. */
  if (is_write (op) && journal_on () && journal_full () &&
      (r = submit (OP_FLUSH, NULL, 0, 0)) < 0)
    return r;

  pthread_mutex_lock (&conn->lock);
  if (conn->dead) {
    pthread_mutex_unlock (&conn->lock);
    return -EIO;
  }
  pthread_cond_init (&req.cond, NULL);
  was_empty = conn->queue == NULL;
  *conn->queue_tail = &req;
  conn->queue_tail = &req.next;
  pthread_mutex_unlock (&conn->lock);
  /* Otherwise a wake-up is on its way already. */
  if (was_empty)
    wake (conn);

  pthread_mutex_lock (&conn->lock);
  while (!req.done)
    pthread_cond_wait (&req.cond, &conn->lock);
  pthread_mutex_unlock (&conn->lock);
  pthread_cond_destroy (&req.cond);
  return req.error != 0 ? -req.error : 0;
}

/* Called in the handler of the signals that end the FUSE loop, which
 * waits for the requests being served: make the connection threads
 * give up the replies that do not come soon.  Async-signal-safe.
 */
void
abandon_connections (void)
{
  uint64_t one = 1;
  int saved_errno = errno;
  size_t i;

  __atomic_store_n (&abandoning, 1, __ATOMIC_RELEASE);
  outage_abandon ();
  for (i = 0; i < nr_conns; ++i)
    if (write (conns[i].wake_fd, &one, sizeof one) == -1) {
      /* Nothing to do: only a full counter fails, and it wakes too. */
    }
  errno = saved_errno;
}

/* After its thread exited: disconnect CONN.  -1 if it failed or was
 * lost on the way, or, with --reconnect, if its flush at exit did not
 * succeed (once it did, a connection lost loses nothing).
 */
static int
close_connection (struct connection *conn)
{
  bool unflushed = reconnecting () && last_flush_failed (conn);
  int r = 0;

  if (conn->nbd != NULL && is_lost (conn->nbd) &&
      (!reconnecting () || unflushed)) {
    fprintf (stderr, "nbdfuse: connection %zu to the server was lost\n",
             conn->index);
    nbd_close (conn->nbd);
    conn->nbd = NULL;
  }
  if (unflushed)
    fprintf (stderr, "nbdfuse: connection %zu: not flushed at exit: the "
             "last writes may not be durable\n", conn->index);
  if (conn->nbd == NULL || unflushed)
    r = -1;
  if (conn->nbd != NULL) {
    nbd_shutdown (conn->nbd, 0);
    nbd_close (conn->nbd);
  }
  return r;
}

/* After the FUSE loop: let each thread finish what is in flight (and
 * with --reconnect flush), then disconnect.  -1 if a connection failed
 * or was lost on the way.
 */
int
stop_connections (void)
{
  int ret = 0;
  size_t i;

  for (i = 0; i < nr_conns; ++i) {
    struct connection *conn = &conns[i];

    pthread_mutex_lock (&conn->lock);
    conn->stop = true;
    pthread_mutex_unlock (&conn->lock);
    wake (conn);
    pthread_join (conn->thread, NULL);
    if (close_connection (conn) == -1)
      ret = -1;
    close (conn->wake_fd);
    pthread_cond_destroy (&conn->final_flush.cond);
    pthread_mutex_destroy (&conn->lock);
  }
  free (conns);
  return ret;
}
