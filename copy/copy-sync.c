/* copy-sync.c: the single-threaded copy with synchronous calls, used for
 * pipes and --synchronous.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "nbdcopy.h"

_Atomic uint64_t bytes_done;

static void
zero_range (uint64_t offset, uint64_t len)
{
  /* A pipe has no holes: its zeroes are always written. */
  if (opt.destination_is_zero && !opt.allocated && dst.kind != RW_PIPE)
    return;
  rw_zero (&dst, 0, offset, len);
}

static void
write_run (void *opaque, uint64_t offset, size_t len, size_t buf_offset,
           bool zero)
{
  const char *buf = opaque;

  if (zero)
    zero_range (offset, len);
  else
    rw_pwrite (&dst, 0, buf + buf_offset, len, offset);
}

static void
process (char *buf, size_t len, uint64_t offset)
{
  if (opt.blkhash_digest)
    blkhash_data (offset, buf, len);
  split_runs (buf, len, offset, write_run, buf);
  atomic_fetch_add (&bytes_done, len);
  progress_update (false);
}

/* A source of unknown size: read it to the end. */
static void
copy_stream (char *buf)
{
  uint64_t offset = 0;
  size_t got;

  while ((got = rw_pread (&src, 0, buf, opt.request_size, offset)) > 0) {
    process (buf, got, offset);
    offset += got;
  }
}

static void
copy_extent (char *buf, const struct extent *e)
{
  uint64_t offset = e->offset, end = e->offset + e->length;
  size_t n;

  if (e->zero) {
    if (opt.blkhash_digest)
      blkhash_zero (e->offset, e->length);
    zero_range (e->offset, e->length);
    atomic_fetch_add (&bytes_done, e->length);
    progress_update (false);
    return;
  }
  for (; offset < end; offset += n) {
    n = end - offset < opt.request_size ? end - offset : opt.request_size;
    rw_pread (&src, 0, buf, n, offset);
    process (buf, n, offset);
  }
}

void
copy_sync (void)
{
  char *buf = malloc (opt.request_size);
  struct extent_list l = { 0 };
  uint64_t offset, len;
  size_t i;

  if (buf == NULL) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  if (src.size < 0)
    copy_stream (buf);
  for (offset = 0; src.size >= 0 && offset < (uint64_t) src.size;
       offset += len) {
    len = src.size - offset;
    if (len > work_range_size ())
      len = work_range_size ();
    rw_extents (&src, 0, offset, len, &l);
    if (opt.unit > 1)
      extents_align (&l, opt.unit, src.size);
    for (i = 0; i < l.len; i++)
      copy_extent (buf, &l.v[i]);
  }
  free (l.v);
  free (buf);
}
