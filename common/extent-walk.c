/* extent-walk.c: the extents of one metadata context over a range. */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "extent-walk.h"

/* Refuse the chunk at OFFSET: its extents cannot be placed. */
static int
refuse (struct extent_walk *w, uint64_t offset, int *error)
{
  w->bad_reply = offset < w->pos
    ? "server described the same extents twice"
    : "server left a gap between extents";
  *error = EPROTO;
  return -1;
}

/* A chunk's extents start at OFFSET, the offset the library passes
 * with it (the request's: a compact chunk carries none, an extended one
 * must carry the request's).  The protocol allows one chunk per context
 * in a reply, so a chunk must start where the last one stopped: a
 * second chunk from the request's offset describes bytes again, and
 * which description is right cannot be known.  Laid end to end, it
 * would move every extent after the first chunk (a hole on data, and
 * that data copied as zeroes), so the request fails instead.
 *
 * A server may describe more than was asked (nbdkit answers a
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

  if (strcmp (context, w->context) != 0 || w->stopped || w->bad_reply)
    return 0;
  if (offset != w->pos)
    return refuse (w, offset, error);
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

/* The next request of the walk: from W->pos, at most W->max_request. */
static uint64_t
next_request (struct extent_walk *w, uint64_t end)
{
  uint64_t len = end - w->pos < w->max_request ? end - w->pos
                                                : w->max_request;

  w->request = w->pos;
  w->limit = w->pos + len;
  return len;
}

/* What a finished request (R its result: 0, or -1 failed) means. */
static enum extent_walk_result
request_result (struct extent_walk *w, int r)
{
  if (r == -1)
    return w->bad_reply ? EXTENT_WALK_BAD_REPLY : EXTENT_WALK_NBD_ERROR;
  if (w->stopped)
    return EXTENT_WALK_STOPPED;
  if (w->pos == w->request)
    return EXTENT_WALK_NO_EXTENTS;
  return EXTENT_WALK_OK;
}

enum extent_walk_result
extent_walk (struct nbd_handle *nbd, struct extent_walk *w, uint64_t end)
{
  nbd_extent64_callback cb = { .callback = walk_entries, .user_data = w };
  enum extent_walk_result res;
  uint64_t len;

  while (w->pos < end) {
    len = next_request (w, end);
    res = request_result (w, nbd_block_status_64 (nbd, len, w->request,
                                                  cb, 0));
    if (res != EXTENT_WALK_OK)
      return res;
  }
  return EXTENT_WALK_OK;
}

int
extent_walk_aio (struct nbd_handle *nbd, struct extent_walk *w,
                 uint64_t end, nbd_completion_callback done)
{
  nbd_extent64_callback cb = { .callback = walk_entries, .user_data = w };
  uint64_t len = next_request (w, end);

  return nbd_aio_block_status_64 (nbd, len, w->request, cb, done, 0)
    == -1 ? -1 : 0;
}

enum extent_walk_result
extent_walk_aio_result (struct extent_walk *w, int error)
{
  if (error && w->bad_reply == NULL)
    return EXTENT_WALK_NBD_ERROR;
  return request_result (w, error ? -1 : 0);
}
