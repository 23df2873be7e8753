/* rw.c: synchronous reads, writes, zeroing, flushing and extents on any
 * endpoint kind.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "extent-walk.h"
#include "nbdcopy.h"

void
die (int status, const char *fmt, ...)
{
  static pthread_mutex_t exiting = PTHREAD_MUTEX_INITIALIZER;
  va_list ap;
  static char *msg;             /* static: still reachable at exit */

  /* exit is not for two threads at once: the first to fail speaks and
   * exits, any other waits here until the process is gone.
   */
  pthread_mutex_lock (&exiting);
  va_start (ap, fmt);
  if (vasprintf (&msg, fmt, ap) == -1)
    msg = NULL;
  va_end (ap);
  /* The whole line in one fprintf, which glibc writes in one write(2)
   * to the unbuffered stderr: nbdcopy's stderr is often shared with a
   * server (nbdkit --run), whose own message must not land inside it.
   */
  fprintf (stderr, "nbdcopy: %s\n", msg ? msg : fmt);
  exit (status);
}

void
die_io (struct rw *rw, const char *what, uint64_t offset, int err,
        const char *msg)
{
  die (EXIT_FAILURE, "%s: %s failed at offset %" PRIu64 ": %s",
       rw->name, what, offset, msg ? msg : strerror (err));
}

static void __attribute__ ((noreturn))
die_nbd_io (struct rw *rw, const char *what, uint64_t offset)
{
  die_io (rw, what, offset, nbd_get_errno (), nbd_get_error ());
}

/* Local read: a pipe may return less than asked near its end (0 at
 * EOF); a file must not, because its size was known.
 */
static size_t
fd_read (struct rw *rw, char *buf, size_t len, uint64_t offset)
{
  size_t done = 0;
  ssize_t r;

  while (done < len) {
    if (rw->kind == RW_PIPE)
      r = read (rw->fd, buf + done, len - done);
    else
      r = pread (rw->fd, buf + done, len - done, offset + done);
    if (r == -1 && errno == EINTR)
      continue;
    if (r == -1)
      die_io (rw, "read", offset + done, errno, NULL);
    if (r == 0) {
      if (rw->kind == RW_PIPE)
        break;
      die_io (rw, "read", offset + done, 0, "unexpected end of file");
    }
    done += r;
  }
  return done;
}

size_t
rw_pread (struct rw *rw, size_t conn, void *buf, size_t len,
          uint64_t offset)
{
  if (rw->kind == RW_NBD) {
    if (nbd_pread (rw->handles[conn], buf, len, offset, 0) == -1)
      die_nbd_io (rw, "read", offset);
    return len;
  }
  return fd_read (rw, buf, len, offset);
}

/* Writes to a file or a block device go through the page cache.  Each
 * write starts its own writeback at once; the write WRITE_WINDOWS
 * before it (in the same thread) is waited for and dropped from the
 * cache, so a large copy neither fills the cache nor leaves it all to
 * write at the end (libnbd 1.24 does the same).  An error there is a
 * write that never reached the disk (a device error, a full thin
 * pool): the copy fails, as in 1.24.  rw_check_writeback waits for
 * the last windows.
 */
#define WRITE_WINDOWS 8
struct write_window {
  uint64_t offset;
  size_t len;                   /* 0: empty */
};
static __thread struct write_window windows[WRITE_WINDOWS];
static __thread size_t next_window;

static void
writeback (struct rw *rw, uint64_t offset, size_t len)
{
  struct write_window *w = &windows[next_window];

  if (w->len > 0) {
    if (sync_file_range (rw->fd, w->offset, w->len,
                         SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                         SYNC_FILE_RANGE_WAIT_AFTER) == -1)
      die_io (rw, "sync_file_range", w->offset, errno, NULL);
    (void) posix_fadvise (rw->fd, w->offset, w->len, POSIX_FADV_DONTNEED);
  }
  if (sync_file_range (rw->fd, offset, len, SYNC_FILE_RANGE_WRITE) == -1)
    die_io (rw, "sync_file_range", offset, errno, NULL);
  w->offset = offset;
  w->len = len;
  next_window = (next_window + 1) % WRITE_WINDOWS;
}

/* Wait for the writeback still running (the last windows of every
 * thread) and report any error the writeback of the file met since it
 * was opened.  It does not start writing what is still only dirty in
 * the cache: that is --flush's job.
 */
void
rw_check_writeback (struct rw *rw)
{
  if ((rw->kind == RW_FILE || rw->kind == RW_BLOCK) &&
      sync_file_range (rw->fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE) == -1)
    die_io (rw, "sync_file_range", 0, errno, NULL);
}

static void
fd_write (struct rw *rw, const char *buf, size_t len, uint64_t offset)
{
  size_t done = 0;
  ssize_t r;

  while (done < len) {
    if (rw->kind == RW_PIPE)
      r = write (rw->fd, buf + done, len - done);
    else
      r = pwrite (rw->fd, buf + done, len - done, offset + done);
    if (r == -1 && errno == EINTR)
      continue;
    if (r == -1)
      die_io (rw, "write", offset + done, errno, NULL);
    done += r;
  }
  if (rw->kind != RW_PIPE)
    writeback (rw, offset, len);
}

void
rw_pwrite (struct rw *rw, size_t conn, const void *buf, size_t len,
           uint64_t offset)
{
  switch (rw->kind) {
  case RW_NULL:
    return;
  case RW_NBD:
    if (nbd_pwrite (rw->handles[conn], buf, len, offset, 0) == -1)
      die_nbd_io (rw, "write", offset);
    return;
  default:
    fd_write (rw, buf, len, offset);
  }
}

/* Write LEN zero bytes, in pieces no bigger than the request size. */
static void
write_zeroes (struct rw *rw, size_t conn, uint64_t offset, uint64_t len)
{
  size_t n;

  while (len > 0) {
    n = len < opt.request_size ? len : opt.request_size;
    rw_pwrite (rw, conn, zero_buffer (n), n, offset);
    offset += n;
    len -= n;
  }
}

/* fallocate, giving up for good on a mode the file system refuses.
 * Every worker shares *OK, so it is read and cleared atomically: a
 * worker that still sees it true merely makes one more failing call.
 */
static bool
try_fallocate (struct rw *rw, int mode, bool *ok, uint64_t offset,
               uint64_t len)
{
  if (!__atomic_load_n (ok, __ATOMIC_RELAXED))
    return false;
  if (fallocate (rw->fd, mode, offset, len) == 0)
    return true;
  if (errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL &&
      errno != ENODEV)
    die_io (rw, "zero", offset, errno, NULL);
  __atomic_store_n (ok, false, __ATOMIC_RELAXED);
  return false;
}

static void
fd_zero (struct rw *rw, uint64_t offset, uint64_t len)
{
  if (!opt.allocated &&
      try_fallocate (rw, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                     &rw->can_punch, offset, len))
    return;
  if (try_fallocate (rw, FALLOC_FL_ZERO_RANGE, &rw->can_zero_range,
                     offset, len))
    return;
  write_zeroes (rw, 0, offset, len);
}

void
rw_zero (struct rw *rw, size_t conn, uint64_t offset, uint64_t len)
{
  uint64_t n;
  uint32_t flags = opt.allocated ? LIBNBD_CMD_FLAG_NO_HOLE : 0;

  switch (rw->kind) {
  case RW_NULL:
    return;
  case RW_PIPE:
    write_zeroes (rw, conn, offset, len);
    return;
  case RW_NBD:
    if (!rw->can_zero) {
      write_zeroes (rw, conn, offset, len);
      return;
    }
    for (; len > 0; offset += n, len -= n) {
      n = len < MAX_ZERO_SIZE ? len : MAX_ZERO_SIZE;
      if (nbd_zero (rw->handles[conn], n, offset, flags) == -1)
        die_nbd_io (rw, "zero", offset);
    }
    return;
  default:
    fd_zero (rw, offset, len);
  }
}

/* A server that cannot flush makes nbd_flush fail, and so nbdcopy: the
 * caller only gets here when durability was asked for.
 */
void
rw_flush (struct rw *rw)
{
  size_t i;

  if (rw->kind == RW_NBD) {
    for (i = 0; i < rw->nr_handles; i++)
      if (nbd_flush (rw->handles[i], 0) == -1)
        die_nbd_io (rw, "flush", 0);
  }
  else if (rw->kind == RW_FILE || rw->kind == RW_BLOCK) {
    if (fsync (rw->fd) == -1)
      die_io (rw, "flush", 0, errno, NULL);
  }
}

static bool
add_nbd_extent (void *opaque, uint64_t offset, uint64_t length,
                uint64_t flags)
{
  extent_add (opaque, offset, length, (flags & LIBNBD_STATE_ZERO) != 0);
  return true;
}

static void
nbd_extents (struct rw *rw, size_t conn, uint64_t offset, uint64_t len,
             struct extent_list *out)
{
  struct extent_walk w = {
    .context = LIBNBD_CONTEXT_BASE_ALLOCATION, .max_request = len,
    .fn = add_nbd_extent, .opaque = out, .pos = offset,
  };

  switch (extent_walk (rw->handles[conn], &w, offset + len)) {
  case EXTENT_WALK_OK:
    return;
  case EXTENT_WALK_NBD_ERROR:
    die_nbd_io (rw, "block status", w.request);
  case EXTENT_WALK_BAD_REPLY:
    die_io (rw, "block status", w.request, 0, w.bad_reply);
  default:
    die_io (rw, "block status", w.request, 0, "server sent no extents");
  }
}

/* Holes in a regular file, from SEEK_DATA and SEEK_HOLE. */
static void
file_extents (struct rw *rw, uint64_t offset, uint64_t len,
              struct extent_list *out)
{
  uint64_t end = offset + len;
  off_t data, hole;

  while (offset < end) {
    data = lseek (rw->fd, offset, SEEK_DATA);
    if (data == -1 && errno == ENXIO)
      data = end;
    else if (data == -1) {
      extent_add (out, offset, end - offset, false);
      return;
    }
    if ((uint64_t) data > end)
      data = end;
    if ((uint64_t) data > offset)
      extent_add (out, offset, data - offset, true);
    if ((uint64_t) data >= end)
      return;
    hole = lseek (rw->fd, data, SEEK_HOLE);
    if (hole == -1 || (uint64_t) hole > end)
      hole = end;
    extent_add (out, data, hole - data, false);
    offset = hole;
  }
}

void
rw_extents (struct rw *rw, size_t conn, uint64_t offset, uint64_t len,
            struct extent_list *out)
{
  out->len = 0;
  if (!opt.extents || len == 0)
    extent_add (out, offset, len, false);
  else if (rw->kind == RW_NBD)
    nbd_extents (rw, conn, offset, len, out);
  else if (rw->kind == RW_FILE)
    file_extents (rw, offset, len, out);
  else
    extent_add (out, offset, len, false);
}

/* File to file without zero detection or hashing: the kernel copies
 * (and may share blocks, on file systems that can), no user buffer.
 * Returns false if the kernel cannot do it for these files.
 */
bool
rw_copy_file_range (struct rw *from, struct rw *to, uint64_t offset,
                    uint64_t len)
{
  loff_t in = offset, out = offset;
  ssize_t r;

  while (len > 0) {
    r = copy_file_range (from->fd, &in, to->fd, &out, len, 0);
    if (r == -1 && errno == EINTR)
      continue;
    if (r == -1 && in == (loff_t) offset &&
        (errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP ||
         errno == ENOSYS))
      return false;
    if (r == -1)
      die_io (to, "copy_file_range", out, errno, NULL);
    if (r == 0)
      die_io (from, "copy_file_range", in, 0, "unexpected end of file");
    len -= r;
  }
  return true;
}
