/* extent-walk.c: the extents of one metadata context over a range. */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "extent-walk.h"

/* A server may describe more than was asked (nbdkit answers a
 * 4 GiB - 512 request with 4 GiB - 1), and may send contexts that were
 * not asked for: keep only the request, so the next one starts where
 * this one ended, still aligned.
 */
static int
walk_entries (void *opaque, const char *context, uint64_t offset,
              nbd_extent *entries, size_t nr_entries, int *error)
{
  struct extent_walk *w = opaque;
  size_t i;
  uint64_t len;

  if (strcmp (context, w->context) != 0)
    return 0;
  for (i = 0; i < nr_entries && !w->stopped && w->pos < w->limit; i++) {
    len = entries[i].length;
    if (len > w->limit - w->pos)
      len = w->limit - w->pos;
    if (len == 0)
      continue;
    if (!w->fn (w->opaque, w->pos, len, entries[i].flags))
      w->stopped = true;
    w->pos += len;
  }
  return 0;
}

enum extent_walk_result
extent_walk (struct nbd_handle *nbd, struct extent_walk *w, uint64_t end)
{
  nbd_extent64_callback cb = { .callback = walk_entries, .user_data = w };
  uint64_t len;

  while (w->pos < end) {
    w->request = w->pos;
    len = end - w->pos < w->max_request ? end - w->pos : w->max_request;
    w->limit = w->pos + len;
    if (nbd_block_status_64 (nbd, len, w->pos, cb, 0) == -1)
      return EXTENT_WALK_NBD_ERROR;
    if (w->stopped)
      return EXTENT_WALK_STOPPED;
    if (w->pos == w->request)
      return EXTENT_WALK_NO_EXTENTS;
  }
  return EXTENT_WALK_OK;
}
