/* extents.c: extent lists, zero detection and the shared zero buffer. */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdcopy.h"

/* Append an extent, merging it into the last one when they touch and
 * are of the same kind.
 */
void
extent_add (struct extent_list *l, uint64_t offset, uint64_t length,
            bool zero)
{
  struct extent *last = l->len ? &l->v[l->len - 1] : NULL;

  if (length == 0)
    return;
  if (last && last->zero == zero && last->offset + last->length == offset) {
    last->length += length;
    return;
  }
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->v = realloc (l->v, l->cap * sizeof *l->v);
    if (l->v == NULL) {
      perror ("realloc");
      exit (EXIT_FAILURE);
    }
  }
  l->v[l->len++] = (struct extent) { offset, length, zero };
}

/* Shrink every zero extent to whole ALIGN-sized blocks (the block at
 * END, the end of the image, may be short); the parts cut off become
 * data.  Block hashing then sees only whole zero blocks, and a server
 * with a minimum block size gets zero requests it accepts, the
 * unaligned edges being written as data.
 */
void
extents_align (struct extent_list *l, uint64_t align, uint64_t end)
{
  struct extent_list out = { 0 };
  size_t i;
  uint64_t a, b, za, zb;

  for (i = 0; i < l->len; i++) {
    a = l->v[i].offset;
    b = a + l->v[i].length;
    if (!l->v[i].zero) {
      extent_add (&out, a, b - a, false);
      continue;
    }
    za = (a + align - 1) / align * align;
    zb = b == end ? b : b / align * align;
    if (za >= zb) {
      extent_add (&out, a, b - a, false);
      continue;
    }
    extent_add (&out, a, za - a, false);
    extent_add (&out, za, zb - za, true);
    extent_add (&out, zb, b - zb, false);
  }
  free (l->v);
  *l = out;
}

/* True if all LEN bytes are zero: the first 16 bytes are checked, then
 * the buffer is compared with itself shifted by 16, which memcmp does
 * at full speed.
 */
bool
is_zero (const char *buf, size_t len)
{
  size_t i, head = len < 16 ? len : 16;

  for (i = 0; i < head; i++)
    if (buf[i] != 0)
      return false;
  return len <= 16 || memcmp (buf, buf + 16, len - 16) == 0;
}

static char *zeroes;
static pthread_once_t zeroes_once = PTHREAD_ONCE_INIT;

static void
alloc_zeroes (void)
{
  zeroes = calloc (1, MAX_REQUEST_SIZE);
  if (zeroes == NULL) {
    perror ("calloc");
    exit (EXIT_FAILURE);
  }
}

/* LEN <= MAX_REQUEST_SIZE zero bytes, never written to. */
const char *
zero_buffer (size_t len)
{
  pthread_once (&zeroes_once, alloc_zeroes);
  return zeroes;
}

void
split_runs (const char *buf, size_t len, uint64_t offset, run_fn fn,
            void *opaque)
{
  size_t start = 0, pos = 0, n, step = opt.sparse_size;
  bool zero = false, z;

  /* --allocated writes every request whole, zeroes and all. */
  if (step == 0 || opt.allocated) {
    fn (opaque, offset, len, 0, false);
    return;
  }
  while (pos < len) {
    n = len - pos < step ? len - pos : step;
    z = is_zero (buf + pos, n);
    if (pos > start && z != zero) {
      fn (opaque, offset + start, pos - start, start, zero);
      start = pos;
    }
    zero = z;
    pos += n;
  }
  if (pos > start)
    fn (opaque, offset + start, pos - start, start, zero);
}

/* Work ranges hold whole units (whole hash blocks, whole blocks of
 * the servers), so no block is split between workers.
 */
uint64_t
work_range_size (void)
{
  uint64_t size = WORK_RANGE_SIZE;

  /* With --reconnect or --checkpoint a worker flushes between ranges,
   * and copies its last ranges again after a reconnect: keep them
   * short.
   */
  if (resilient () && size > RESILIENT_RANGE_SIZE)
    size = RESILIENT_RANGE_SIZE;
  if (resilient () && size > opt.checkpoint_bytes)
    size = opt.checkpoint_bytes;
  size = size / opt.unit * opt.unit;
  if (size == 0)
    size = opt.unit;
  /* A --blkhash block larger than a request is hashed as its pieces
   * come in order (blkhash.c): one worker takes all of it.
   */
  if (opt.blkhash_digest && opt.blkhash_block_size > MAX_REQUEST_SIZE)
    size = (size + opt.blkhash_block_size - 1) / opt.blkhash_block_size
      * opt.blkhash_block_size;
  return size;
}
