/* outage.c: with --reconnect, surviving a dead connection.
 *
 * The first connection thread to find its connection dead leads the
 * outage: its dispatcher wakes the others, and each closes its handle
 * (what it had in flight is kept, to be issued again) and waits here.
 * A restarted server has lost every connection, and replaying the
 * journal (below) must not race with a write on a connection still
 * alive, so all of them reconnect together.  Once all are waiting the
 * leader dials a handle for each, checks that the export is the one
 * first connected to, writes again what the journal holds, flushes,
 * and hands the handles out.  Until the window is over it tries again,
 * with back-off.  If it fails every request fails with EIO from then
 * on.
 *
 * The dispatcher (dispatch.c) calls in, never the other way: it raises
 * an outage and, told it leads, wakes its own connection threads; each
 * then joins; on exit it tells this layer to give up.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdfuse.h"

/* Replayed writes in flight at once, none overlapping another. */
#define REPLAY_BATCH 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static size_t nr_conns, nr_active;      /* threads not exited yet */
static _Atomic bool raised;
static size_t leader;                   /* while raised */
static _Atomic bool abandoned;          /* nbdfuse is exiting */
static size_t arrived;
static uint64_t generation;             /* of outages over */
static bool *waiting;                   /* by connection index */
static struct nbd_handle **fresh;       /* handed out by index */
static bool failed, changed;
static struct backoff backoff;
static struct reconnect_stats stats;

void
outage_init (size_t n)
{
  nr_conns = nr_active = n;
  waiting = calloc (n, sizeof *waiting);
  fresh = calloc (n, sizeof *fresh);
  if (waiting == NULL || fresh == NULL) {
    perror ("nbdfuse: calloc");
    exit (EXIT_FAILURE);
  }
}

bool
outage_raised (void)
{
  return atomic_load (&raised);
}

/* nbdfuse is exiting: stop trying to reconnect.  Called from a signal
 * handler, so it only stores.
 */
void
outage_abandon (void)
{
  atomic_store (&abandoned, true);
}

/* A connection thread exits (unmounted): do not wait for it. */
void
outage_leave (void)
{
  pthread_mutex_lock (&lock);
  nr_active--;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
}

bool
outage_export_changed (void)
{
  return changed;
}

void
outage_print_stats (void)
{
  reconnect_stats_print ("nbdfuse", &stats);
}

/* The replay's commands, all on one handle. */
struct batch {
  unsigned pending;
  int error;
};

static int
batch_done (void *vp, int *error)
{
  struct batch *b = vp;

  b->pending--;
  if (*error != 0 && b->error == 0)
    b->error = *error;
  return 1;
}

/* Wait for what is in flight on H, at most the request timeout. */
static bool
drain (struct nbd_handle *h, struct batch *b, char *why, size_t len)
{
  double timeout = nf.policy.request_timeout;
  double deadline = reconnect_now () + timeout;

  while (b->pending > 0) {
    int ms = -1;

    if (timeout > 0) {
      double left = deadline - reconnect_now ();

      if (left <= 0) {
        snprintf (why, len, "no reply for %g s while replaying", timeout);
        return false;
      }
      ms = (int) (left * 1000) + 1;
    }
    if (nbd_poll (h, ms) == -1) {
      snprintf (why, len, "%s", nbd_get_error ());
      return false;
    }
  }
  if (b->error != 0) {
    snprintf (why, len, "replaying: %s", strerror (b->error));
    return false;
  }
  return true;
}

static bool
overlap (const struct journal_entry *a, const struct journal_entry *b)
{
  return a->offset < b->offset + b->count && b->offset < a->offset + a->count;
}

/* Whether E overlaps one of the entries from FIRST up to E. */
static bool
overlaps_batch (const struct journal_entry *first,
                const struct journal_entry *e)
{
  for (; first != e; first = first->next)
    if (overlap (first, e))
      return true;
  return false;
}

static int64_t
issue_entry (struct nbd_handle *h, const struct journal_entry *e,
             struct batch *b)
{
  nbd_completion_callback cb = { .callback = batch_done, .user_data = b };
  int64_t r;

  b->pending++;
  switch (e->op) {
  case OP_WRITE:
    r = nbd_aio_pwrite (h, e->data, e->count, e->offset, cb, 0);
    break;
  case OP_PUNCH:
    r = nbd_aio_zero (h, e->count, e->offset, cb, 0);
    break;
  default:
    r = nbd_aio_zero (h, e->count, e->offset, cb, LIBNBD_CMD_FLAG_NO_HOLE);
  }
  if (r == -1)
    b->pending--;               /* the callback will not run */
  return r;
}

/* Write the journal again on H, oldest first, then flush: what the
 * kernel was told is written is then durable.  Bytes written go to
 * *BYTES.
 */
static bool
replay (struct nbd_handle *h, uint64_t *bytes, char *why, size_t len)
{
  nbd_completion_callback cb = { .callback = batch_done };
  struct batch b = { 0 };
  struct journal_entry *e, *first = journal_oldest ();
  unsigned n = 0;

  cb.user_data = &b;
  *bytes = 0;
  for (e = first; e != NULL; e = e->next) {
    if (n == REPLAY_BATCH || overlaps_batch (first, e)) {
      if (!drain (h, &b, why, len))
        return false;
      first = e;
      n = 0;
    }
    if (issue_entry (h, e, &b) == -1) {
      snprintf (why, len, "%s", nbd_get_error ());
      return false;
    }
    n++;
    *bytes += e->count;
  }
  b.pending++;
  if (nbd_aio_flush (h, cb, 0) == -1) {
    snprintf (why, len, "%s", nbd_get_error ());
    return false;
  }
  return drain (h, &b, why, len);
}

static void
close_fresh (void)
{
  size_t i;

  for (i = 0; i < nr_conns; ++i) {
    nbd_close (fresh[i]);
    fresh[i] = NULL;
  }
}

/* The export behind H is the one first connected to.  If not, the
 * outage cannot be survived: CHANGED is set.
 */
static bool
verify (struct nbd_handle *h, char *why, size_t len)
{
  struct export_facts now;
  char what[256];

  if (export_facts_read (h, &now) == -1) {
    snprintf (why, len, "%s", nbd_get_error ());
    export_facts_free (&now);
    return false;
  }
  if (export_facts_differ (&nf.facts, &now, what, sizeof what)) {
    snprintf (why, len, "the export changed: %s", what);
    changed = true;
  }
  export_facts_free (&now);
  return !changed;
}

/* When to give up connecting: at the end of the window, or sooner if
 * the server takes longer than a request may.
 */
static double
attempt_deadline (void)
{
  double end = backoff.start + nf.policy.window;
  double soon = reconnect_now () + nf.policy.request_timeout;

  if (nf.policy.request_timeout > 0 && soon < end)
    return soon;
  return end;
}

/* One attempt: a verified handle for each waiting connection, the
 * journal replayed on the first.
 */
static bool
attempt (char *why, size_t len)
{
  struct nbd_handle *first = NULL;
  uint64_t bytes = 0;
  size_t i;

  for (i = 0; i < nr_conns; ++i) {
    if (!waiting[i])
      continue;
    fresh[i] = dial_server (nf.mode, nf.mode_args, attempt_deadline (),
                            why, len);
    if (fresh[i] == NULL || !verify (fresh[i], why, len))
      goto fail;
    if (first == NULL)
      first = fresh[i];
  }
  if (journal_on () && !nf.no_replay && first != NULL &&
      !replay (first, &bytes, why, len))
    goto fail;
  atomic_fetch_add (&stats.bytes_replayed, bytes);
  journal_clear ();
  return true;

 fail:
  close_fresh ();
  return false;
}

/* The leader, once every connection is waiting: reconnect within the
 * window, or fail for good.
 */
static void
recover (void)
{
  char why[512] = "";
  bool ok = false;
  double waited;

  while (!atomic_load (&abandoned)) {
    ok = attempt (why, sizeof why);
    if (ok || changed)
      break;
    if (nf.verbose)
      fprintf (stderr, "nbdfuse: reconnecting: %s\n", why);
    if (!backoff_wait (&backoff))
      break;
  }
  waited = reconnect_now () - backoff.start;
  atomic_fetch_add (&stats.waited_ms, (uint64_t) (waited * 1000));
  if (ok) {
    atomic_fetch_add (&stats.reconnects, 1);
    fprintf (stderr, "nbdfuse: reconnected after %.1f s\n", waited);
    if (nf.verbose)
      outage_print_stats ();
    return;
  }
  failed = true;
  journal_clear ();
  if (atomic_load (&abandoned))
    snprintf (why, sizeof why, "nbdfuse is exiting");
  fprintf (stderr, "nbdfuse: %s%s: requests fail with EIO from now on\n",
           changed ? "" : "could not reconnect: ", why);
}

/* Connection thread INDEX found its connection dead (WHY says what
 * broke it), or was woken because another's is: raise the outage, if
 * no other thread did.  True if this thread leads it: the caller then
 * wakes every connection thread, to close its handle and join.  False
 * too once the outage was not survived (outage_join says so).
 */
bool
outage_raise (size_t index, const char *why)
{
  bool lead = false;

  pthread_mutex_lock (&lock);
  if (!failed && !atomic_load (&raised)) {
    atomic_store (&raised, true);
    leader = index;
    lead = true;
    backoff_start (&backoff, &nf.policy);
    fprintf (stderr, "nbdfuse: connection %zu to the server was lost%s%s: "
             "reconnecting for up to %g s\n", index,
             why ? ": " : "", why ? why : "", nf.policy.window);
  }
  pthread_mutex_unlock (&lock);
  return lead;
}

/* The leader: once every connection is waiting, recover, and let them
 * go.  Called and returns with the lock held.
 */
static void
lead_recovery (void)
{
  while (arrived < nr_active)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  recover ();
  pthread_mutex_lock (&lock);
  arrived = 0;
  atomic_store (&raised, false);
  generation++;
  pthread_cond_broadcast (&cond);
}

/* Called by connection thread INDEX, once its handle is closed, after
 * outage_raise.  Returns the new handle, or NULL: the outage was not
 * survived.
 */
struct nbd_handle *
outage_join (size_t index)
{
  struct nbd_handle *h;
  uint64_t gen;

  pthread_mutex_lock (&lock);
  if (failed) {
    pthread_mutex_unlock (&lock);
    return NULL;
  }
  gen = generation;
  arrived++;
  waiting[index] = true;
  if (atomic_load (&raised) && leader == index)
    lead_recovery ();
  else {
    pthread_cond_broadcast (&cond);     /* the leader counts us */
    while (generation == gen)
      pthread_cond_wait (&cond, &lock);
  }
  h = fresh[index];
  fresh[index] = NULL;
  waiting[index] = false;
  pthread_mutex_unlock (&lock);
  return h;
}
