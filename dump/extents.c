/* extents.c: which parts of the export read as zeroes, from the
 * server's base:allocation block status, asked for a large range at a
 * time and looked up in order.
 */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct request {
  struct extent_map *map;
  uint64_t end;                 /* of the range asked for */
};

/* The server may describe less than was asked, or (in its last extent)
 * more: what lies past the range is cut off.
 */
static int
got_extents (void *user_data, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  struct request *r = user_data;
  struct extent_map *map = r->map;
  uint64_t pos = map->len ? map->v[map->len - 1].end : map->start;
  size_t i;

  (void) offset;
  (void) error;
  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) != 0)
    return 0;
  for (i = 0; i < nr_entries && pos < r->end; i++) {
    if (entries[i].length == 0)
      continue;
    pos = entries[i].length < r->end - pos ? pos + entries[i].length
                                           : r->end;
    add (map, pos, (entries[i].flags & LIBNBD_STATE_ZERO) != 0);
  }
  return 0;
}

/* Forget the old extents and ask about those from OFFSET, up to END,
 * in whole blocks of the server's minimum size.
 */
static void
refresh (struct extent_map *map, uint64_t offset, uint64_t end)
{
  struct request r = { map, 0 };
  nbd_extent64_callback cb = { .callback = got_extents, .user_data = &r };

  offset -= offset % map->min;
  r.end = end - offset < MAX_STATUS_REQUEST
    ? block_end (end, map->min, map->size) : offset + MAX_STATUS_REQUEST;
  map->len = map->next = 0;
  map->start = offset;
  if (nbd_block_status_64 (map->nbd, r.end - offset, offset, cb, 0) == -1) {
    fprintf (stderr, "%s: block status failed at offset %" PRIu64 ": %s\n",
             progname, offset, nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  /* Nothing said means nothing known: the range is read. */
  if (map->len == 0)
    add (map, r.end, false);
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
