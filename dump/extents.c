/* extents.c: which parts of the export read as zeroes, from the
 * server's base:allocation block status, asked for a large range at a
 * time and looked up in order.
 */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extent-walk.h"
#include "nbddump.h"

/* Block status asked for at most this much at once: it fits the 32 bit
 * length of a compact request, and is aligned to any block size.
 */
#define MAX_STATUS_REQUEST (UINT64_C (1) << 31)

void
extent_map_init (struct extent_map *map, struct nbd_handle *nbd,
                 uint64_t min, uint64_t size)
{
  memset (map, 0, sizeof *map);
  map->nbd = nbd;
  map->min = min;
  map->size = size;
  map->usable =
    nbd_can_meta_context (nbd, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1;
}

void
extent_map_free (struct extent_map *map)
{
  free (map->v);
  map->v = NULL;
  map->len = map->cap = 0;
}

/* Append an extent ending at END, merged into the last one if it is of
 * the same kind.
 */
static void
add (struct extent_map *map, uint64_t end, bool zero)
{
  if (map->len > 0 && map->v[map->len - 1].zero == zero) {
    map->v[map->len - 1].end = end;
    return;
  }
  if (map->len == map->cap) {
    map->cap = map->cap ? map->cap * 2 : 64;
    map->v = realloc (map->v, map->cap * sizeof *map->v);
    if (map->v == NULL) {
      perror ("realloc");
      exit (EXIT_FAILURE);
    }
  }
  map->v[map->len++] = (struct extent) { end, zero };
}

static bool
add_walked (void *opaque, uint64_t offset, uint64_t length, uint64_t flags)
{
  add (opaque, offset + length, (flags & LIBNBD_STATE_ZERO) != 0);
  return true;
}

static void __attribute__ ((noreturn))
status_failed (uint64_t offset, const char *why)
{
  fprintf (stderr, "%s: block status failed at offset %" PRIu64 ": %s\n",
           progname, offset, why);
  exit (EXIT_FAILURE);
}

/* Forget the old extents and ask about those from OFFSET, up to END
 * (at most MAX_STATUS_REQUEST bytes of it), in whole blocks of the
 * server's minimum size, through the walk nbdinfo and nbdcopy use:
 * each chunk's extents are placed at their own offset.
 */
static void
refresh (struct extent_map *map, uint64_t offset, uint64_t end)
{
  struct extent_walk w = {
    .context = LIBNBD_CONTEXT_BASE_ALLOCATION,
    .max_request = MAX_STATUS_REQUEST, .fn = add_walked, .opaque = map,
  };

  offset -= offset % map->min;
  end = end - offset < MAX_STATUS_REQUEST
    ? block_end (end, map->min, map->size) : offset + MAX_STATUS_REQUEST;
  w.pos = offset;
  map->len = map->next = 0;
  map->start = offset;
  switch (extent_walk (map->nbd, &w, end)) {
  case EXTENT_WALK_OK:
  case EXTENT_WALK_STOPPED:     /* add_walked never stops the walk */
    return;
  case EXTENT_WALK_NO_EXTENTS:
    /* Nothing said means nothing known: the rest is read. */
    add (map, end, false);
    return;
  case EXTENT_WALK_BAD_REPLY:
    status_failed (w.request, w.bad_reply);
  case EXTENT_WALK_NBD_ERROR:
    status_failed (w.request, nbd_get_error ());
  }
}

/* Return where the extent holding OFFSET ends (at most END), and in
 * *ZERO whether it reads as zeroes.  Offsets must be asked in order.
 * Without base:allocation, everything is data.
 */
uint64_t
extent_at (struct extent_map *map, uint64_t offset, uint64_t end,
           bool *zero)
{
  struct extent *e;

  *zero = false;
  if (!map->usable)
    return end;
  if (map->len == 0 || offset < map->start ||
      offset >= map->v[map->len - 1].end)
    refresh (map, offset, end);
  while (map->v[map->next].end <= offset)
    map->next++;
  e = &map->v[map->next];
  *zero = e->zero;
  return e->end < end ? e->end : end;
}
