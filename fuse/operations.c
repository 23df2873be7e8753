/* operations.c: the FUSE operations on the one file (and its directory).
 *
 * Several FUSE threads may run these at once; they share only the
 * read-only facts in nf, and hand the I/O to dispatch.c.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "nbdfuse.h"

/* Pieces of a large request.  The kernel sends reads and writes of at
 * most 1 MiB, but fallocate may name any range.
 */
#define MAX_RW_CHUNK (32 * 1024 * 1024)
#define MAX_ZERO_CHUNK (1024 * 1024 * 1024)

#define TRACE(fmt, ...)                                         \
  do {                                                          \
    if (nf.verbose)                                             \
      fprintf (stderr, "nbdfuse: " fmt "\n", __VA_ARGS__);      \
  } while (0)

/* Is PATH (as FUSE names it, from the mount's root) the file? */
static bool
is_file (const char *path)
{
  if (nf.file_mode)
    return strcmp (path, "/") == 0;
  return path[0] == '/' && strcmp (path + 1, nf.filename) == 0;
}

static int
nbdfuse_getattr (const char *path, struct stat *st,
                 struct fuse_file_info *fi)
{
  (void) fi;
  TRACE ("getattr: path=%s", path);
  memset (st, 0, sizeof *st);
  st->st_uid = geteuid ();
  st->st_gid = getegid ();
  st->st_atim = st->st_mtim = st->st_ctim = nf.start_time;
  if (is_file (path)) {
    st->st_mode = S_IFREG | (nf.readonly ? 0444 : 0666);
    st->st_nlink = 1;
    st->st_size = nf.size;
  }
  else if (strcmp (path, "/") == 0) {
    st->st_mode = S_IFDIR | 0555;
    st->st_nlink = 2;
  }
  else
    return -ENOENT;
  return 0;
}

static int
nbdfuse_readdir (const char *path, void *buf, fuse_fill_dir_t filler,
                 off_t offset, struct fuse_file_info *fi,
                 enum fuse_readdir_flags flags)
{
  (void) offset; (void) fi; (void) flags;
  TRACE ("readdir: path=%s", path);
  if (nf.file_mode || strcmp (path, "/") != 0)
    return is_file (path) ? -ENOTDIR : -ENOENT;
  filler (buf, ".", NULL, 0, 0);
  filler (buf, "..", NULL, 0, 0);
  filler (buf, nf.filename, NULL, 0, 0);
  return 0;
}

static int
nbdfuse_open (const char *path, struct fuse_file_info *fi)
{
  TRACE ("open: path=%s flags=0%o", path, (unsigned) fi->flags);
  if (!is_file (path))
    return -ENOENT;
  if (nf.readonly && (fi->flags & O_ACCMODE) != O_RDONLY)
    return -EACCES;
  /* libfuse gives fi->flags to open and release only: flush, called
   * at each close, learns the access mode from the handle.
   */
  fi->fh = (fi->flags & O_ACCMODE) != O_RDONLY;
  return 0;
}

/* The file has the export's size: "truncating" it to that size (as
 * O_TRUNC or dd without conv=notrunc do) changes nothing, any other
 * size is refused as for a block device.
 */
static int
nbdfuse_truncate (const char *path, off_t size, struct fuse_file_info *fi)
{
  (void) fi;
  TRACE ("truncate: path=%s size=%" PRIi64, path, (int64_t) size);
  if (!is_file (path))
    return -ENOENT;
  if (nf.readonly)
    return -EACCES;
  return (uint64_t) size == nf.size ? 0 : -EINVAL;
}

/* OP on [OFFSET, OFFSET+COUNT), in pieces of at most CHUNK bytes. */
static int
submit_range (enum op op, char *buf, uint64_t count, uint64_t offset,
              uint64_t chunk)
{
  while (count > 0) {
    uint64_t n = count < chunk ? count : chunk;
    int r = submit (op, buf, n, offset);

    if (r < 0)
      return r;
    if (buf)
      buf += n;
    count -= n;
    offset += n;
  }
  return 0;
}

static int
nbdfuse_read (const char *path, char *buf, size_t count, off_t offset,
              struct fuse_file_info *fi)
{
  int r;

  (void) path; (void) fi;
  TRACE ("read: count=%zu offset=%" PRIi64, count, (int64_t) offset);
  if (offset < 0)
    return -EINVAL;
  /* A short read only at the end of the file: FUSE would fill the rest
   * of a short read with zeroes.
   */
  if ((uint64_t) offset >= nf.size)
    return 0;
  if (count > nf.size - offset)
    count = nf.size - offset;
  r = submit_range (OP_READ, buf, count, offset, MAX_RW_CHUNK);
  return r < 0 ? r : (int) count;
}

static int
nbdfuse_write (const char *path, const char *buf, size_t count,
               off_t offset, struct fuse_file_info *fi)
{
  int r;

  (void) path; (void) fi;
  TRACE ("write: count=%zu offset=%" PRIi64, count, (int64_t) offset);
  if (nf.readonly)
    return -EACCES;
  if (offset < 0)
    return -EINVAL;
  /* The file cannot grow, like a full device. */
  if ((uint64_t) offset >= nf.size)
    return -ENOSPC;
  if (count > nf.size - offset)
    count = nf.size - offset;
  /* Writes only read BUF. */
  r = submit_range (OP_WRITE, (char *) buf, count, offset, MAX_RW_CHUNK);
  return r < 0 ? r : (int) count;
}

static int
flush_server (void)
{
  if (nf.readonly || !nf.can_flush)
    return 0;
  return submit (OP_FLUSH, NULL, 0, 0);
}

static int
nbdfuse_fsync (const char *path, int datasync, struct fuse_file_info *fi)
{
  (void) fi;
  TRACE ("fsync: path=%s datasync=%d", path, datasync);
  return flush_server ();
}

/* Called at each close of a file descriptor: what was written through
 * it is made durable.  fi->fh is 1 for a descriptor opened for
 * writing (nbdfuse_open).
 */
static int
nbdfuse_flush (const char *path, struct fuse_file_info *fi)
{
  TRACE ("flush: path=%s writable=%d", path, (int) fi->fh);
  if (!fi->fh)
    return 0;
  return flush_server ();
}

/* Zero RANGE with writes, for servers without NBD_CMD_WRITE_ZEROES. */
static int
write_zeroes (uint64_t count, uint64_t offset)
{
  static char zeroes[1024 * 1024]; /* never written */

  while (count > 0) {
    uint64_t n = count < sizeof zeroes ? count : sizeof zeroes;
    int r = submit (OP_WRITE, zeroes, n, offset);

    if (r < 0)
      return r;
    count -= n;
    offset += n;
  }
  return 0;
}

/* Punching a hole must leave zeroes behind, which NBD_CMD_TRIM does
 * not promise: it becomes a write of zeroes that the server may
 * deallocate.  FALLOC_FL_ZERO_RANGE keeps the range allocated.
 */
static int
nbdfuse_fallocate (const char *path, int mode, off_t offset, off_t len,
                   struct fuse_file_info *fi)
{
  bool punch = mode & FALLOC_FL_PUNCH_HOLE;
  uint64_t end;

  (void) path; (void) fi;
  TRACE ("fallocate: mode=0x%x len=%" PRIi64 " offset=%" PRIi64,
         (unsigned) mode, (int64_t) len, (int64_t) offset);
  if (nf.readonly)
    return -EACCES;
  if (offset < 0 || len <= 0)
    return -EINVAL;
  if (!punch && !(mode & FALLOC_FL_ZERO_RANGE))
    return -EOPNOTSUPP;
  end = (uint64_t) offset + len;
  if (end > nf.size) {
    if (!(mode & FALLOC_FL_KEEP_SIZE))
      return -ENOSPC;           /* the file cannot grow */
    end = nf.size;
  }
  if ((uint64_t) offset >= end)
    return 0;
  if (nf.can_zero)
    return submit_range (punch ? OP_PUNCH : OP_ZERO, NULL, end - offset,
                         offset, MAX_ZERO_CHUNK);
  return write_zeroes (end - offset, offset);
}

const struct fuse_operations nbdfuse_operations = {
  .getattr = nbdfuse_getattr,
  .readdir = nbdfuse_readdir,
  .open = nbdfuse_open,
  .truncate = nbdfuse_truncate,
  .read = nbdfuse_read,
  .write = nbdfuse_write,
  .fsync = nbdfuse_fsync,
  .flush = nbdfuse_flush,
  .fallocate = nbdfuse_fallocate,
};
