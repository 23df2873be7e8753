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

static size_t
read_size (struct nbd_handle *nbd)
{
  int64_t max = nbd_get_block_size (nbd, LIBNBD_SIZE_MAXIMUM);

  if (max > 0 && max < MAX_READ)
    return (size_t) max;
  return MAX_READ;
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

/* Dump LENGTH bytes from OFFSET of an export of SIZE bytes. */
void
dump (struct nbd_handle *nbd, uint64_t offset, uint64_t length,
      uint64_t size)
{
  struct hexdump hd;
  struct extent_map map;
  size_t bufsize = read_size (nbd);
  unsigned char *buf = malloc (bufsize);
  uint64_t pos = offset, end = offset + length, next;
  bool zero;

  if (buf == NULL) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  hexdump_init (&hd, offset, size);
  extent_map_init (&map, nbd);
  while (pos < end) {
    next = extent_at (&map, pos, end, &zero);
    if (zero)
      hexdump_zeroes (&hd, next - pos);
    else {
      if (next - pos > bufsize)
        next = pos + bufsize;
      read_data (nbd, buf, next - pos, pos);
      hexdump_data (&hd, buf, next - pos);
    }
    pos = next;
  }
  hexdump_finish (&hd);
  extent_map_free (&map);
  free (buf);
}
