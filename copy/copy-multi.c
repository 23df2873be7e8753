/* copy-multi.c: the multi-threaded copy.  Each worker owns its NBD
 * connections, its buffers and its poll loop, and takes the next range
 * of the source until none is left, so workers share nothing but one
 * counter.  With --reconnect or --checkpoint the worker's loop drives
 * the reconnect layer beneath it (copy-resilient.h; see README).
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy-resilient.h"
#include "nbdcopy.h"
#include "worker.h"

/* An NBD write (S set) or zero (S NULL) in flight, for the error
 * message.
 */
struct pending {
  struct worker *w;
  struct slot *s;               /* NULL for a zero */
  uint64_t offset;
};

static _Atomic uint64_t next_offset;
/* Only when nothing needs to look at the data in user space. */
static bool use_copy_file_range;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static unsigned workers_done;

static void *
xmalloc (size_t n)
{
  void *p = malloc (n);

  if (p == NULL) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  return p;
}

/* A failed command or poll: fatal, unless --reconnect is on and the
 * connection is what failed.
 */
static void
failed (struct worker *w, struct rw *rw, const char *what,
        uint64_t offset, int err, const char *msg)
{
  if (opt.rc.window > 0)
    note_failure (w, rw, what, offset, err, msg);
  else
    die_io (rw, what, offset, err, msg);
}

/* Bytes of the source done, counted for this worker's replays too. */
static void
count_done (struct worker *w, uint64_t n)
{
  atomic_fetch_add (&bytes_done, n);
  w->counted += n;
}

/* The set of connections poll_once waits on. */
struct poll_set {
  struct pollfd p[2];
  struct rw *rw[2];
  struct nbd_handle *h[2];
  size_t n;
};

static void
add_poll (struct worker *w, struct poll_set *ps, struct rw *rw,
          struct nbd_handle *h)
{
  unsigned dir;
  size_t n = ps->n;

  if (h == NULL || nbd_aio_in_flight (h) <= 0)
    return;
  dir = nbd_aio_get_direction (h);
  ps->p[n].fd = nbd_aio_get_fd (h);
  if (ps->p[n].fd == -1) {
    failed (w, rw, "poll", 0, nbd_get_errno (), nbd_get_error ());
    return;
  }
  ps->p[n].events = ((dir & LIBNBD_AIO_DIRECTION_READ) ? POLLIN : 0) |
    ((dir & LIBNBD_AIO_DIRECTION_WRITE) ? POLLOUT : 0);
  ps->p[n].revents = 0;
  ps->rw[n] = rw;
  ps->h[n] = h;
  ps->n++;
}

static void
notify (struct worker *w, struct rw *rw, struct nbd_handle *h,
        short revents)
{
  int r = 0;

  if (revents & (POLLIN | POLLHUP | POLLERR))
    r = nbd_aio_notify_read (h);
  else if (revents & POLLOUT)
    r = nbd_aio_notify_write (h);
  if (r == -1)
    failed (w, rw, "poll", 0, nbd_get_errno (), nbd_get_error ());
}

/* Wait for either connection of the worker to make progress.  Only
 * NBD commands can be in flight, since local I/O completes at once.
 */
static void
poll_once (struct worker *w)
{
  struct poll_set ps = { .n = 0 };
  size_t i;
  int r, timeout = opt.rc.request_timeout > 0 ? poll_timeout (w) : -1;

  add_poll (w, &ps, &src, w->src_h);
  add_poll (w, &ps, &dst, w->dst_h);
  if (ps.n == 0 && broken (w))
    return;
  if (ps.n == 0) {
    fprintf (stderr, "nbdcopy: internal error: nothing to wait for\n");
    abort ();
  }
  r = poll (ps.p, ps.n, timeout);
  if (r == -1) {
    if (errno == EINTR)
      return;
    perror ("poll");
    exit (EXIT_FAILURE);
  }
  if (r == 0 && timeout >= 0) {
    poll_timed_out (w);
    return;
  }
  for (i = 0; i < ps.n; i++)
    notify (w, ps.rw[i], ps.h[i], ps.p[i].revents);
}

/* Wait until another command may start (and a slot is free if
 * NEED_SLOT).  Never called from a completion callback, where polling
 * would re-enter the handle.
 */
static void
wait_capacity (struct worker *w, bool need_slot)
{
  while (!broken (w) &&
         ((need_slot && w->nr_free == 0) || busy (w) >= opt.requests))
    poll_once (w);
}

static void
slot_put (struct slot *s)
{
  if (--s->refs == 0)
    s->w->free[s->w->nr_free++] = s;
}

static struct pending *
new_pending (struct worker *w, struct slot *s, uint64_t offset)
{
  struct pending *p = xmalloc (sizeof *p);

  *p = (struct pending) { w, s, offset };
  return p;
}

static int
write_done (void *vp, int *error)
{
  struct pending *p = vp;

  if (opt.rc.request_timeout > 0)
    note_reply (p->w);
  if (*error)
    failed (p->w, &dst, p->s ? "write" : "zero", p->offset, *error, NULL);
  if (p->s)
    slot_put (p->s);
  else
    p->w->zeros_in_flight--;
  return 1;
}

static void
aio_failed (struct worker *w, struct rw *rw, const char *what,
            uint64_t offset)
{
  failed (w, rw, what, offset, nbd_get_errno (), nbd_get_error ());
}

/* Zero an NBD destination range with commands of at most MAX, or
 * writes from the zero buffer when the server cannot zero.
 */
static void
nbd_zero_range (struct worker *w, uint64_t offset, uint64_t len,
                bool may_wait)
{
  uint64_t n, max = dst.can_zero ? MAX_ZERO_SIZE : opt.request_size;
  uint32_t flags = opt.allocated ? LIBNBD_CMD_FLAG_NO_HOLE : 0;
  nbd_completion_callback cb = { .callback = write_done, .free = free };
  int r;

  for (; len > 0; offset += n, len -= n) {
    n = len < max ? len : max;
    if (may_wait)
      wait_capacity (w, false);
    if (broken (w))
      return;
    if (opt.rc.request_timeout > 0)
      note_issue (w);
    cb.user_data = new_pending (w, NULL, offset);
    w->zeros_in_flight++;
    if (dst.can_zero)
      r = nbd_aio_zero (w->dst_h, n, offset, cb, flags);
    else
      r = nbd_aio_pwrite (w->dst_h, zero_buffer (n), n, offset, cb, 0);
    if (r == -1) {
      w->zeros_in_flight--;
      aio_failed (w, &dst, "zero", offset);
    }
  }
}

static void
zero_range (struct worker *w, uint64_t offset, uint64_t len, bool may_wait)
{
  if (dst.kind == RW_NULL || (opt.destination_is_zero && !opt.allocated))
    return;
  if (dst.kind == RW_NBD)
    nbd_zero_range (w, offset, len, may_wait);
  else
    rw_zero (&dst, w->index, offset, len);
}

/* One run of a finished read: zeroes or data for the destination.
 * Runs from a completion callback, so it must not wait.
 */
static void
write_run (void *opaque, uint64_t offset, size_t len, size_t buf_offset,
           bool zero)
{
  struct slot *s = opaque;
  nbd_completion_callback cb = { .callback = write_done, .free = free };

  if (broken (s->w))
    return;                     /* the range will be copied again */
  if (zero) {
    zero_range (s->w, offset, len, false);
    return;
  }
  if (dst.kind != RW_NBD) {
    rw_pwrite (&dst, s->w->index, s->buf + buf_offset, len, offset);
    return;
  }
  s->refs++;
  cb.user_data = new_pending (s->w, s, offset);
  if (nbd_aio_pwrite (s->w->dst_h, s->buf + buf_offset, len, offset, cb,
                      0) == -1) {
    s->refs--;
    aio_failed (s->w, &dst, "write", offset);
  }
}

static void
finish_read (struct slot *s)
{
  if (opt.blkhash_digest)
    blkhash_data (s->offset, s->buf, s->count);
  if (dst.kind != RW_NULL && !s->hash_only) {
    if (resilient () && !broken (s->w))
      note_data (s->w, s->offset, s->buf, s->count);
    split_runs (s->buf, s->count, s->offset, write_run, s);
  }
  count_done (s->w, s->count);
  slot_put (s);
}

static int
read_done (void *vp, int *error)
{
  struct slot *s = vp;

  if (opt.rc.request_timeout > 0)
    note_reply (s->w);
  if (*error) {
    failed (s->w, &src, "read", s->offset, *error, NULL);
    slot_put (s);
    return 1;
  }
  finish_read (s);
  return 1;
}

static void
start_read (struct worker *w, uint64_t offset, size_t len)
{
  struct slot *s;
  nbd_completion_callback cb = { .callback = read_done };

  wait_capacity (w, true);
  if (broken (w))
    return;
  if (opt.rc.request_timeout > 0)
    note_issue (w);
  s = w->free[--w->nr_free];
  if (s->buf == NULL)
    s->buf = xmalloc (opt.request_size);
  s->offset = offset;
  s->count = len;
  s->refs = 1;
  s->hash_only = w->hash_only;
  if (src.kind != RW_NBD) {
    rw_pread (&src, w->index, s->buf, len, offset);
    finish_read (s);
    return;
  }
  cb.user_data = s;
  if (nbd_aio_pread (w->src_h, s->buf, len, offset, cb, 0) == -1) {
    slot_put (s);
    aio_failed (w, &src, "read", offset);
  }
}

static void
copy_extent (struct worker *w, const struct extent *e)
{
  uint64_t offset, end = e->offset + e->length;
  size_t n;

  if (e->zero) {
    if (opt.blkhash_digest)
      blkhash_zero (e->offset, e->length);
    if (!w->hash_only)
      zero_range (w, e->offset, e->length, true);
    count_done (w, e->length);
    return;
  }
  if (use_copy_file_range &&
      rw_copy_file_range (&src, &dst, e->offset, e->length)) {
    count_done (w, e->length);
    return;
  }
  for (offset = e->offset; offset < end && !broken (w); offset += n) {
    n = end - offset < opt.request_size ? end - offset : opt.request_size;
    start_read (w, offset, n);
  }
}

static bool
next_range (uint64_t *offset, uint64_t *len)
{
  uint64_t size = work_range_size ();
  uint64_t off = atomic_fetch_add (&next_offset, size);

  if (off >= (uint64_t) src.size)
    return false;
  *offset = off;
  *len = src.size - off < size ? src.size - off : size;
  return true;
}

static void
init_worker (struct worker *w, size_t index)
{
  size_t i, n = opt.queue_size / opt.request_size;

  if (n > opt.requests)
    n = opt.requests;
  if (n == 0)
    n = 1;
  w->index = index;
  w->src_h = src.kind == RW_NBD ? src.handles[index] : NULL;
  w->dst_h = dst.kind == RW_NBD ? dst.handles[index] : NULL;
  w->slots = calloc (n, sizeof *w->slots);
  w->free = calloc (n, sizeof *w->free);
  if (w->slots == NULL || w->free == NULL) {
    perror ("calloc");
    exit (EXIT_FAILURE);
  }
  for (i = 0; i < n; i++) {
    w->slots[i].w = w;
    w->free[i] = &w->slots[n - 1 - i];
  }
  w->nr_slots = w->nr_free = n;
}

static void
free_worker (struct worker *w)
{
  size_t i;

  for (i = 0; i < w->nr_slots; i++)
    free (w->slots[i].buf);
  free (w->slots);
  free (w->free);
  free (w->extents.v);
  range_log_free (&w->written);
  range_log_free (&w->redo);
  range_log_free (&w->hash_queue);
  sample_list_free (&w->samples);
}

static void
worker_finished (void)
{
  pthread_mutex_lock (&done_lock);
  workers_done++;
  pthread_cond_signal (&done_cond);
  pthread_mutex_unlock (&done_lock);
}

static void *
worker_main (void *vp)
{
  struct worker *w = vp;
  uint64_t offset, len;
  size_t i;

  while (next_range (&offset, &len)) {
    rw_extents (&src, w->index, offset, len, &w->extents);
    if (opt.unit > 1)
      extents_align (&w->extents, opt.unit, src.size);
    for (i = 0; i < w->extents.len; i++)
      copy_extent (w, &w->extents.v[i]);
  }
  while (busy (w) > 0)
    poll_once (w);
  worker_finished ();
  return NULL;
}

/* Polling until C, a block status or flush alone in flight, is done.
 * A dead or broken connection fails it in the library, so this always
 * ends, and C (on the caller's stack) is never touched afterwards.
 */
static void
wait_lone (struct lone_call *c)
{
  while (!c->done)
    poll_once (c->w);
}

static void
source_extents (struct worker *w, uint64_t offset, uint64_t len)
{
  struct lone_call c;

  rc_extents_begin (w, &c, offset, len);
  while (rc_extents_issue (&c)) {
    wait_lone (&c);
    if (!rc_extents_result (&c))
      return;
  }
}

static void
copy_range (struct worker *w, uint64_t offset, uint64_t len)
{
  size_t i;

  if (src.kind == RW_NBD && opt.extents)
    source_extents (w, offset, len);
  else
    rw_extents (&src, w->index, offset, len, &w->extents);
  if (broken (w))
    return;
  if (opt.unit > 1)
    extents_align (&w->extents, opt.unit, src.size);
  for (i = 0; i < w->extents.len && !broken (w); i++)
    copy_extent (w, &w->extents.v[i]);
}

/* Wait for every write, flush, and let the reconnect layer forget
 * what is now durable; false if a connection broke.
 */
static bool
checkpoint (struct worker *w)
{
  struct lone_call c;

  while (!broken (w) && busy (w) > 0)
    poll_once (w);
  if (rc_flush_issue (w, &c)) {
    wait_lone (&c);
    rc_flush_result (&c);
  }
  return rc_checkpoint_end (w);
}

static bool
in_flight (struct nbd_handle *h)
{
  return h && nbd_aio_in_flight (h) > 0;
}

/* Let what is in flight end (a broken socket fails it at once), then
 * the reconnect layer dials again.
 */
static void
recover (struct worker *w)
{
  rc_recover_begin (w);
  while (busy (w) > 0 && (in_flight (w->src_h) || in_flight (w->dst_h)))
    poll_once (w);
  rc_recover_end (w);
}

/* The next range: one the reconnect layer queued, else a new one. */
static bool
take_range (struct worker *w, uint64_t *offset, uint64_t *len)
{
  for (;;) {
    if (rc_take_queued (w, offset, len))
      return true;
    if (!next_range (offset, len))
      return false;
    if (!rc_queue_range (w, *offset, *len))
      return true;
  }
}

/* The worker's loop with --reconnect or --checkpoint. */
static void *
worker_resilient (void *vp)
{
  struct worker *w = vp;
  uint64_t offset, len;

  rc_start (w);
  for (;;) {
    /* The end is a checkpoint too, with or without --flush: a copy
     * that survives restarts of its server is not finished until its
     * last writes are durable there.  A break during this flush is
     * recovered as any other, the ranges since the last checkpoint
     * copied again, and the flush sent again.
     */
    if (!take_range (w, &offset, &len)) {
      if (checkpoint (w))
        break;
      recover (w);
      continue;
    }
    rc_range_begin (w, offset, len);
    copy_range (w, offset, len);
    if (rc_range_copied (w, len))
      checkpoint (w);
    if (broken (w))
      recover (w);
  }
  worker_finished ();
  return NULL;
}

/* With a progress display, wake every 100 ms to redraw it. */
static void
wait_for_workers (void)
{
  struct timespec ts;

  pthread_mutex_lock (&done_lock);
  while (workers_done < opt.threads) {
    if (opt.progress_fd == -1) {
      pthread_cond_wait (&done_cond, &done_lock);
      continue;
    }
    clock_gettime (CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000 * 1000 * 1000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000 * 1000 * 1000;
    }
    pthread_cond_timedwait (&done_cond, &done_lock, &ts);
    pthread_mutex_unlock (&done_lock);
    progress_update (false);
    pthread_mutex_lock (&done_lock);
  }
  pthread_mutex_unlock (&done_lock);
}

void
copy_multi (void)
{
  struct worker *workers = calloc (opt.threads, sizeof *workers);
  size_t i;
  int err;

  if (workers == NULL) {
    perror ("calloc");
    exit (EXIT_FAILURE);
  }
  use_copy_file_range = src.kind == RW_FILE && dst.kind == RW_FILE &&
    opt.sparse_size == 0 && !opt.blkhash_digest && !opt.allocated;
  for (i = 0; i < opt.threads; i++) {
    init_worker (&workers[i], i);
    err = pthread_create (&workers[i].thread, NULL,
                          resilient () ? worker_resilient : worker_main,
                          &workers[i]);
    if (err != 0) {
      fprintf (stderr, "nbdcopy: pthread_create: %s\n", strerror (err));
      exit (EXIT_FAILURE);
    }
  }
  wait_for_workers ();
  for (i = 0; i < opt.threads; i++) {
    pthread_join (workers[i].thread, NULL);
    free_worker (&workers[i]);
  }
  free (workers);
}
