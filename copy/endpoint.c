/* endpoint.c: turn SOURCE and DESTINATION words into open endpoints. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "nbdcopy.h"

/* The names libnbd 1.22's nbdcopy -v gives the kinds of end ("nbd"
 * for nbd_ops), which scripts grep: a block device is a "file".
 */
const char *
rw_ops_name (enum rw_kind k)
{
  switch (k) {
  case RW_NBD: return "nbd";
  case RW_FILE: return "file";
  case RW_BLOCK: return "file";
  case RW_PIPE: return "pipe";
  case RW_NULL: return "null";
  }
  return "?";
}

/* nbd:, nbds:, nbd+unix:, nbds+vsock: and the like. */
static bool
is_nbd_uri (const char *s)
{
  return strncmp (s, "nbd:", 4) == 0 || strncmp (s, "nbds:", 5) == 0 ||
    strncmp (s, "nbd+", 4) == 0 || strncmp (s, "nbds+", 5) == 0;
}

static void __attribute__ ((noreturn))
die_errno (const char *name, const char *what)
{
  fprintf (stderr, "nbdcopy: %s: %s: %s\n", name, what, strerror (errno));
  exit (EXIT_FAILURE);
}

/* Size and kind of an open local file descriptor. */
static void
classify_fd (struct rw *rw)
{
  struct stat st;
  uint64_t bytes;

  if (fstat (rw->fd, &st) == -1)
    die_errno (rw->name, "fstat");
  if (S_ISREG (st.st_mode)) {
    rw->kind = RW_FILE;
    rw->size = st.st_size;
  }
  else if (S_ISBLK (st.st_mode)) {
    rw->kind = RW_BLOCK;
    if (ioctl (rw->fd, BLKGETSIZE64, &bytes) == -1)
      die_errno (rw->name, "BLKGETSIZE64");
    rw->size = bytes;
  }
  else {
    rw->kind = RW_PIPE;
    rw->size = -1;
  }
  rw->can_punch = rw->can_zero_range = true;
}

static void
init (struct rw *rw, const char *name, char **argv, bool is_source)
{
  memset (rw, 0, sizeof *rw);
  rw->name = name;
  rw->argv = argv;
  rw->is_source = is_source;
  rw->fd = -1;
  rw->minimum = 1;
}

void
open_source (struct rw *rw, const char *name, char **argv)
{
  init (rw, name, argv, true);
  if (argv || is_nbd_uri (name)) {
    rw->uri = argv ? NULL : name;
    nbd_open (rw);
    return;
  }
  if (strcmp (name, "-") == 0)
    rw->fd = STDIN_FILENO;
  else {
    rw->fd = open (name, O_RDONLY | O_CLOEXEC);
    if (rw->fd == -1)
      die_errno (name, "open");
  }
  classify_fd (rw);
  if (rw->kind == RW_PIPE || rw->kind == RW_BLOCK)
    opt.extents = opt.extents && rw->kind != RW_PIPE;
}

/* Standard output opened with ">>": every write lands at the end of
 * the file, whatever its offset.
 */
static bool
is_append (int fd)
{
  int flags = fcntl (fd, F_GETFL);

  return flags != -1 && (flags & O_APPEND) != 0;
}

/* A destination written only in order, as a pipe.  EMPTY: a file of
 * unknown final size, emptied first so that nothing it held before is
 * left behind the copy.
 */
static void
write_in_order (struct rw *rw, bool empty)
{
  if (empty && ((rw->size > 0 && ftruncate (rw->fd, 0) == -1) ||
                lseek (rw->fd, 0, SEEK_SET) == -1))
    die_errno (rw->name, "truncate");
  rw->kind = RW_PIPE;
  rw->size = -1;
}

/* A regular file emptied and given the source's size holds only
 * zeroes, so holes in the source need no writes at all.
 */
static void
size_file (struct rw *rw, int64_t size)
{
  /* Truncating an empty file is not a no-op on ext4: the file is then
   * flushed at close, as if it replaced another (auto_da_alloc).
   */
  if ((rw->size > 0 && ftruncate (rw->fd, 0) == -1) ||
      ftruncate (rw->fd, size) == -1)
    die_errno (rw->name, "truncate");
  rw->size = size;
  opt.destination_is_zero = true;
}

static void
open_local_destination (struct rw *rw, int64_t src_size)
{
  if (strcmp (rw->name, "-") == 0)
    rw->fd = STDOUT_FILENO;
  else {
    /* --checkpoint reads the destination back to check it. */
    rw->fd = open (rw->name, (opt.checkpoint_file ? O_RDWR : O_WRONLY) |
                   O_CREAT | O_CLOEXEC, 0644);
    if (rw->fd == -1)
      die_errno (rw->name, "open");
  }
  classify_fd (rw);
  if (is_append (rw->fd))
    write_in_order (rw, false);
  else if (rw->kind == RW_FILE && opt.resume)
    ;                           /* resuming: what is there is kept */
  else if (rw->kind == RW_FILE && src_size >= 0)
    size_file (rw, src_size);
  else if (rw->kind == RW_FILE)
    write_in_order (rw, true);
}

void
open_destination (struct rw *rw, const char *name, char **argv,
                  int64_t src_size)
{
  init (rw, name, argv, false);
  if (argv || is_nbd_uri (name)) {
    rw->uri = argv ? NULL : name;
    nbd_open (rw);
  }
  else if (strcmp (name, "null:") == 0) {
    rw->kind = RW_NULL;
    rw->size = src_size;
  }
  else
    open_local_destination (rw, src_size);
}

/* Open the other N-1 connections to an NBD endpoint. */
void
connect_more (struct rw *rw, size_t n)
{
  if (rw->kind != RW_NBD)
    return;
  while (rw->nr_handles < n)
    rw->handles[rw->nr_handles++] = nbd_connect_one (rw);
}

void
close_endpoint (struct rw *rw)
{
  size_t i;

  for (i = 0; i < rw->nr_handles; i++) {
    /* With --reconnect everything was flushed already: a server gone
     * since then loses nothing.
     */
    if (nbd_shutdown (rw->handles[i], 0) == -1 &&
        !(opt.rc.window > 0 &&
          reconnect_is_connection_error (rw->handles[i],
                                         nbd_get_errno ()))) {
      fprintf (stderr, "nbdcopy: %s: %s\n", rw->name, nbd_get_error ());
      exit (EXIT_FAILURE);
    }
    nbd_close (rw->handles[i]);
  }
  free (rw->handles);
  if (rw->fd > STDERR_FILENO && close (rw->fd) == -1)
    die_errno (rw->name, "close");
  if (rw->fd == STDOUT_FILENO && fflush (stdout) == EOF)
    die_errno (rw->name, "write");
}
