/* dump.c: read the export in large requests, skipping what block
 * status says is zero, and hand it to the hexdump.
 */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbddump.h"

/* The largest read: a few MiB keeps round trips few and memory small,
 * and the server may allow less.
 */
#define MAX_READ (4 * 1024 * 1024)

/* The server's minimum block size: every request starts and ends on
 * a multiple of it (1 if the server named none).
 */
static uint64_t
min_block (struct nbd_handle *nbd)
{
  int64_t min = nbd_get_block_size (nbd, LIBNBD_SIZE_MINIMUM);

  return min > 0 ? (uint64_t) min : 1;
}

/* The largest read, a whole number of minimum blocks. */
static size_t
read_size (struct nbd_handle *nbd, uint64_t min)
{
  int64_t max = nbd_get_block_size (nbd, LIBNBD_SIZE_MAXIMUM);
  uint64_t n = MAX_READ;

  if (max > 0 && (uint64_t) max < n)
    n = max;
  n -= n % min;
  return n >= min ? n : min;
}

static void
read_data (struct nbd_handle *nbd, unsigned char *buf, size_t n,
           uint64_t offset)
{
  if (nbd_pread (nbd, buf, n, offset, 0) == -1) {
    fflush (stdout);
    fprintf (stderr, "%s: read failed at offset %" PRIu64 ": %s\n",
             progname, offset, nbd_get_error ());
    exit (EXIT_FAILURE);
  }
}

/* What nbddump reads, and the buffer it reads into. */
struct reader {
  struct nbd_handle *nbd;
  uint64_t min;                 /* minimum block size */
  uint64_t size;                /* of the export */
  size_t bufsize;               /* a multiple of min */
  unsigned char *buf;
};

/* Read [*POS, *NEXT) as the minimum block size allows: widened to the
 * blocks it touches (but not past the end of the export), and cut
 * short so that they fit the buffer.  Returns where *POS is in the
 * buffer.
 */
static const unsigned char *
read_blocks (struct reader *r, uint64_t pos, uint64_t *next)
{
  uint64_t start = pos - pos % r->min, end;

  if (*next - start > r->bufsize)
    *next = start + r->bufsize;
  end = block_end (*next, r->min, r->size);
  read_data (r->nbd, r->buf, end - start, start);
  return r->buf + (pos - start);
}

/* Dump LENGTH bytes from OFFSET of an export of SIZE bytes. */
void
dump (struct nbd_handle *nbd, uint64_t offset, uint64_t length,
      uint64_t size)
{
  struct hexdump hd;
  struct extent_map map;
  struct reader r = { .nbd = nbd, .min = min_block (nbd), .size = size };
  uint64_t pos = offset, end = offset + length, next;
  bool zero;

  r.bufsize = read_size (nbd, r.min);
  r.buf = malloc (r.bufsize);
  if (r.buf == NULL) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  hexdump_init (&hd, offset, size);
  extent_map_init (&map, nbd, r.min, size);
  while (pos < end) {
    next = extent_at (&map, pos, end, &zero);
    if (zero)
      hexdump_zeroes (&hd, next - pos);
    else {
      const unsigned char *p = read_blocks (&r, pos, &next);

      hexdump_data (&hd, p, next - pos);
    }
    pos = next;
  }
  hexdump_finish (&hd);
  extent_map_free (&map);
  free (r.buf);
}
