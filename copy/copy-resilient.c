/* copy-resilient.c: the reconnect layer beneath the copy pipeline, for
 * --reconnect and --checkpoint.  It keeps, for each worker,
 *  - the state of its connections: a failure or a request with no
 *    reply marks an end dead, for the pipeline to see as broken ();
 *  - the ranges written since the last flush, flushed at checkpoints
 *    and at the end, and the ranges still to copy;
 *  - the recovery: once nothing is in flight, it dials the dead end
 *    again, checks the export is the same and still holds the data
 *    made durable (durable-samples.h), and queues again every range
 *    written since the last flush, since a server that restarted may
 *    have lost any write not flushed.
 * It calls nothing in the pipeline (copy-resilient.h says how the
 * waiting is split).  Each worker owns its connections, so each
 * recovers alone.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint-file.h"
#include "copy-resilient.h"
#include "extent-walk.h"
#include "nbdcopy.h"
#include "worker.h"

struct reconnect_stats rc_stats;

void
note_failure (struct worker *w, struct rw *rw, const char *what,
              uint64_t offset, int err, const char *msg)
{
  struct nbd_handle *h = rw == &src ? w->src_h : w->dst_h;
  bool first = !broken (w);

  if (opt.rc.window <= 0 || !reconnect_is_connection_error (h, err))
    die_io (rw, what, offset, err, msg);
  if (rw == &src)
    w->src_dead = true;
  else
    w->dst_dead = true;
  if (first) {
    w->broken_at = reconnect_now ();
    if (w->outage_start == 0)
      w->outage_start = w->broken_at;
    snprintf (w->why, sizeof w->why, "%s: %s failed at offset %" PRIu64
              ": %s", rw->name, what, offset,
              msg ? msg : strerror (err));
  }
}

void
note_issue (struct worker *w)
{
  if (busy (w) == 0)
    w->stall_since = reconnect_now ();
}

void
note_reply (struct worker *w)
{
  w->stall_since = reconnect_now ();
}

/* Milliseconds poll may wait before the request timeout is reached. */
int
poll_timeout (struct worker *w)
{
  double left = w->stall_since + opt.rc.request_timeout - reconnect_now ();

  return left <= 0 ? 0 : (int) (left * 1000) + 1;
}

/* Mark an end whose commands got no reply as dead, and break its
 * socket so that the library fails them and nothing more is sent.
 */
static void
time_out (struct worker *w, struct rw *rw, struct nbd_handle *h)
{
  bool first;

  if (h == NULL || nbd_aio_in_flight (h) <= 0)
    return;
  first = !broken (w);
  note_failure (w, rw, "request", 0, ETIMEDOUT, NULL);
  if (first) {
    snprintf (w->why, sizeof w->why, "%s: no reply for %g seconds",
              rw->name, opt.rc.request_timeout);
    /* The outage began with the silence, not when it was noticed. */
    if (w->outage_start == w->broken_at)
      w->outage_start = w->stall_since;
    w->broken_at = w->stall_since;
  }
  reconnect_break (h);
}

void
poll_timed_out (struct worker *w)
{
  if (reconnect_now () - w->stall_since < opt.rc.request_timeout)
    return;
  if (opt.rc.window <= 0)
    die (EXIT_FAILURE, "no reply for %g seconds: giving up",
         opt.rc.request_timeout);
  time_out (w, &src, w->src_h);
  time_out (w, &dst, w->dst_h);
}

/* A block of data just read, about to be written: the first of the
 * range being copied becomes a sample, durable at the next checkpoint.
 */
void
note_data (struct worker *w, uint64_t offset, const char *buf, size_t count)
{
  struct sample s;

  if (w->sampled || !sample_of_data (offset, buf, count, &s))
    return;
  sample_list_add (&w->samples, &s);
  w->sampled = true;
}

static int
lone_done (void *vp, int *error)
{
  struct lone_call *c = vp;

  c->done = true;
  c->error = *error;
  c->w->others_in_flight--;
  note_reply (c->w);
  return 1;
}

static bool
add_extent (void *opaque, uint64_t offset, uint64_t length, uint64_t flags)
{
  extent_add (opaque, offset, length, (flags & LIBNBD_STATE_ZERO) != 0);
  return true;
}

/* Block status goes through the worker's poll loop, not a call that
 * waits, so that the request timeout covers it too.
 */
void
rc_extents_begin (struct worker *w, struct lone_call *c, uint64_t offset,
                  uint64_t len)
{
  *c = (struct lone_call) {
    .w = w,
    .walk = { .context = LIBNBD_CONTEXT_BASE_ALLOCATION,
              .max_request = len, .fn = add_extent,
              .opaque = &w->extents, .pos = offset },
    .end = offset + len,
  };
  w->extents.len = 0;
}

bool
rc_extents_issue (struct lone_call *c)
{
  struct worker *w = c->w;
  nbd_completion_callback cb = { .callback = lone_done, .user_data = c };

  if (c->walk.pos >= c->end || broken (w))
    return false;
  note_issue (w);
  c->done = false;
  w->others_in_flight++;
  if (extent_walk_aio (w->src_h, &c->walk, c->end, cb) == -1) {
    w->others_in_flight--;
    note_failure (w, &src, "block status", c->walk.request,
                  nbd_get_errno (), nbd_get_error ());
    return false;
  }
  return true;
}

bool
rc_extents_result (struct lone_call *c)
{
  switch (extent_walk_aio_result (&c->walk, c->error)) {
  case EXTENT_WALK_OK:
    return true;
  case EXTENT_WALK_NBD_ERROR:
    note_failure (c->w, &src, "block status", c->walk.request, c->error,
                  NULL);
    return false;
  case EXTENT_WALK_BAD_REPLY:
    die_io (&src, "block status", c->walk.request, 0, c->walk.bad_reply);
  default:
    die_io (&src, "block status", c->walk.request, 0,
            "server sent no extents");
  }
}

/* A destination that cannot flush writes through (the protocol's
 * promise), and a local file outlives any server: nothing to flush.
 */
bool
rc_flush_issue (struct worker *w, struct lone_call *c)
{
  nbd_completion_callback cb = { .callback = lone_done, .user_data = c };

  if (broken (w) || dst.kind != RW_NBD || !dst.can_flush)
    return false;
  *c = (struct lone_call) { .w = w };
  /* Alone in flight after the drain.  Writing out what the server
   * holds may take long: a flush may take ten request timeouts.
   */
  w->stall_since = reconnect_now () + 9 * opt.rc.request_timeout;
  w->others_in_flight++;
  if (nbd_aio_flush (w->dst_h, cb, 0) == -1) {
    w->others_in_flight--;
    note_failure (w, &dst, "flush", 0, nbd_get_errno (), nbd_get_error ());
    return false;
  }
  return true;
}

void
rc_flush_result (struct lone_call *c)
{
  if (c->error)
    note_failure (c->w, &dst, "flush", 0, c->error, NULL);
}

/* The writes are done and flushed: forget what is now durable. */
bool
rc_checkpoint_end (struct worker *w)
{
  if (broken (w))
    return false;
  if (ckfile_active () && dst.fd >= 0 && fdatasync (dst.fd) == -1)
    die_io (&dst, "fdatasync", 0, errno, NULL);
  ckfile_durable (&w->written, &w->samples);
  w->written.len = 0;
  w->samples.len = 0;
  w->ckpt_bytes = 0;
  w->counted = 0;
  w->ckpt_time = reconnect_now ();
  w->replaying = false;
  w->outage_start = 0;
  return true;
}

/* After a reconnect, a checkpoint after each range copied again: the
 * outage ends only with a flush that succeeds, and should end soon.
 */
static bool
checkpoint_due (struct worker *w)
{
  return w->replaying ||
    w->ckpt_bytes >= opt.checkpoint_bytes ||
    reconnect_now () - w->ckpt_time >= opt.checkpoint_seconds;
}

void
rc_start (struct worker *w)
{
  w->ckpt_time = reconnect_now ();
}

/* A range only hashed goes in the log too: after a failure it is
 * copied again, which is harmless.
 */
void
rc_range_begin (struct worker *w, uint64_t offset, uint64_t len)
{
  range_log_add (&w->written, offset, len);
  w->sampled = false;
}

bool
rc_range_copied (struct worker *w, uint64_t len)
{
  if (!w->hash_only)
    w->ckpt_bytes += len;
  return !broken (w) && checkpoint_due (w);
}

static void __attribute__ ((noreturn))
give_up (struct worker *w, struct rw *rw, const char *err)
{
  if (err[0] == '\0')           /* no attempt: the outage is too old */
    die (EXIT_FAILURE, "%s: the connection kept breaking for %g "
         "seconds: no checkpoint (a flush of what was copied) "
         "succeeded since the first break\nnbdcopy: the last break: %s",
         rw->name, opt.rc.window, w->why);
  die (EXIT_FAILURE, "%s: could not reconnect within %g seconds: "
       "%s\nnbdcopy: the connection broke: %s", rw->name,
       opt.rc.window, err, w->why);
}

static void
same_export (struct rw *rw, struct nbd_handle *h)
{
  struct export_facts f;
  char why[256];

  if (export_facts_read (h, &f) == -1)
    die (EXIT_FAILURE, "%s: %s", rw->name, nbd_get_error ());
  if (export_facts_differ (&rw->facts, &f, why, sizeof why))
    die (EXIT_EXPORT_CHANGED, "%s: the export changed across a "
         "reconnect: %s", rw->name, why);
  export_facts_free (&f);
}

/* A sample read on H, a new connection nothing else uses yet, within
 * the request timeout; on failure ERR says why.
 */
struct sample_reader {
  struct nbd_handle *h;
  char *err;
  size_t len;
};

static int
read_sample (void *vp, void *buf, size_t len, uint64_t offset)
{
  struct sample_reader *r = vp;
  double deadline = reconnect_now () + opt.rc.request_timeout, left;
  int64_t cookie;
  int done = 0, ms = -1;

  cookie = nbd_aio_pread (r->h, buf, len, offset, NBD_NULL_COMPLETION, 0);
  while (cookie != -1 &&
         (done = nbd_aio_command_completed (r->h, cookie)) == 0) {
    if (opt.rc.request_timeout > 0) {
      left = deadline - reconnect_now ();
      if (left <= 0) {
        snprintf (r->err, r->len, "no reply for %g seconds to a read at "
                  "%" PRIu64, opt.rc.request_timeout, offset);
        return -1;
      }
      ms = (int) (left * 1000) + 1;
    }
    if (nbd_poll (r->h, ms) == -1)
      break;
  }
  if (cookie != -1 && done == 1)
    return 0;
  snprintf (r->err, r->len, "read at %" PRIu64 ": %s", offset,
            nbd_get_error ());
  return -1;
}

/* Whether the export on H still holds the blocks of data made durable
 * on the destination (the source, what was read from it): false, with
 * the reason in ERR, when a read failed, which fails this attempt.
 * The data changed is the end of the copy.
 */
static bool
same_data (struct rw *rw, struct nbd_handle *h, char *err, size_t len)
{
  struct sample_reader r = { .h = h, .err = err, .len = len };
  uint64_t bad;

  switch (durable_samples_check (read_sample, &r, &bad)) {
  case 0:
    return true;
  case 1:
    if (rw == &dst)
      die (EXIT_EXPORT_CHANGED, "%s: the destination came back without "
           "data it had made durable (at offset %" PRIu64 "): it is "
           "empty or another disk, so the copy cannot go on", rw->name,
           bad);
    die (EXIT_EXPORT_CHANGED, "%s: the source's data changed across a "
         "reconnect (at offset %" PRIu64 ")", rw->name, bad);
  default:
    return false;
  }
}

/* Dial RW again for this worker within the outage's window, and
 * insist that it is the same export, still holding the same data.
 */
static void
redial (struct worker *w, struct rw *rw, struct nbd_handle **hp,
        struct backoff *b)
{
  struct nbd_handle *h;
  char err[256] = "";
  int errnum = 0;

  nbd_close (*hp);
  *hp = rw->handles[w->index] = NULL;
  for (;;) {
    if (!backoff_wait (b))
      give_up (w, rw, err);
    h = nbd_try_connect (rw, err, sizeof err, &errnum);
    if (h == NULL) {
      if (errnum == ENOTSUP && rw->facts.tls == 1)
        die (EXIT_EXPORT_CHANGED, "%s: the export changed across a "
             "reconnect: TLS changed from yes to no (%s)", rw->name, err);
      continue;
    }
    same_export (rw, h);
    if (same_data (rw, h, err, sizeof err))
      break;
    nbd_close (h);
  }
  *hp = rw->handles[w->index] = h;
  atomic_fetch_add (&rc_stats.reconnects, 1);
}


/* After a failure: break the dead ends' sockets, so that what is in
 * flight there fails at once, for the caller's poll to see it end.
 */
void
rc_recover_begin (struct worker *w)
{
  if (opt.verbose)
    fprintf (stderr, "nbdcopy: connection %zu: %s: reconnecting\n",
             w->index, w->why);
  if (w->src_dead && w->src_h)
    reconnect_break (w->src_h);
  if (w->dst_dead && w->dst_h)
    reconnect_break (w->dst_h);
}

/* Nothing in flight any more: dial the dead ends, and queue again
 * every range written since the last flush (with --no-replay, for
 * testing, only the range being copied at the break, much as other
 * clients send again only what was in flight).
 */
void
rc_recover_end (struct worker *w)
{
  struct backoff b;
  uint64_t moved, uncount;

  if (busy (w) > 0) {
    fprintf (stderr, "nbdcopy: internal error: %u requests lost\n",
             busy (w));
    abort ();
  }
  /* The window is the outage's, which goes on until a checkpoint's
   * flush succeeds (copying a range again proves nothing when its
   * flush then fails): a connection that breaks over and over is
   * given one window, not one per break.
   */
  backoff_start (&b, &opt.rc);
  b.start = w->outage_start;
  if (w->src_dead)
    redial (w, &src, &w->src_h, &b);
  if (w->dst_dead)
    redial (w, &dst, &w->dst_h, &b);
  moved = range_log_move (&w->written, &w->redo, opt.no_replay ? 1 : 0);
  w->samples.len = 0;           /* taken again as the ranges are copied */
  uncount = w->counted < moved ? w->counted : moved;
  atomic_fetch_sub (&bytes_done, uncount);
  atomic_fetch_add (&rc_stats.bytes_replayed, moved);
  atomic_fetch_add (&rc_stats.waited_ms, (uint64_t)
                    ((reconnect_now () - w->broken_at) * 1000));
  if (opt.verbose)
    fprintf (stderr, "nbdcopy: connection %zu: reconnected after %.3f s, "
             "copying %" PRIu64 " bytes again\n", w->index,
             reconnect_now () - w->broken_at, moved);
  w->counted = w->ckpt_bytes = 0;
  w->ckpt_time = reconnect_now ();
  w->replaying = true;
  w->src_dead = w->dst_dead = false;
}

/* A piece of a new range: to copy, or durable already (from an
 * earlier run), then only read for --blkhash, or simply done.
 */
static void
queue_piece (void *vp, uint64_t offset, uint64_t len, bool durable)
{
  struct worker *w = vp;

  if (!durable)
    range_log_add (&w->redo, offset, len);
  else if (opt.blkhash_digest)
    range_log_add (&w->hash_queue, offset, len);
  else
    atomic_fetch_add (&bytes_done, len);
}

bool
rc_take_queued (struct worker *w, uint64_t *offset, uint64_t *len)
{
  w->hash_only = false;
  if (range_log_take (&w->redo, offset, len))
    return true;
  w->hash_only = true;
  if (range_log_take (&w->hash_queue, offset, len))
    return true;
  w->hash_only = false;
  return false;
}

bool
rc_queue_range (struct worker *w, uint64_t offset, uint64_t len)
{
  if (!ckfile_active ())
    return false;
  ckfile_split (offset, len, queue_piece, w);
  return true;
}
