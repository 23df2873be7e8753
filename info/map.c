/* map.c: --map, the extents of one metadata context over the export. */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "extent-walk.h"
#include "nbdinfo.h"

/* Merging as extents arrive keeps a sparse export's map small however
 * many pieces the server reports it in.
 */
static bool
append_extent (void *opaque, uint64_t offset, uint64_t length,
               uint64_t flags)
{
  struct extent_list *l = opaque;

  if (l->len > 0 && l->ptr[l->len - 1].flags == flags) {
    l->ptr[l->len - 1].length += length;
    return true;
  }
  if (l->len == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    nbd_extent *p = realloc (l->ptr, cap * sizeof *p);

    if (p == NULL)
      return false;
    l->ptr = p;
    l->cap = cap;
  }
  l->ptr[l->len++] = (nbd_extent) { .length = length, .flags = flags };
  return true;
}

/* The longest request: without extended headers a length is 32 bits,
 * kept a multiple of the minimum block size.
 */
static uint64_t
max_request (struct nbd_handle *nbd, uint64_t size)
{
  int64_t align = nbd_get_block_size (nbd, LIBNBD_SIZE_MINIMUM);

  if (nbd_get_extended_headers_negotiated (nbd) == 1)
    return size;
  if (align <= 0)
    align = 512;
  return UINT32_MAX - align + 1;
}

static void
collect_extents (struct nbd_handle *nbd, uint64_t size,
                 struct extent_list *l)
{
  struct extent_walk w = {
    .context = map_context, .max_request = max_request (nbd, size),
    .fn = append_extent, .opaque = l,
  };

  switch (extent_walk (nbd, &w, size)) {
  case EXTENT_WALK_OK:
    return;
  case EXTENT_WALK_NBD_ERROR:
    die_nbd ();
  case EXTENT_WALK_STOPPED:
    die_oom ();
  case EXTENT_WALK_BAD_REPLY:
    fprintf (stderr, "%s: --map: block status failed at offset %" PRIu64
             ": %s\n", progname, w.request, w.bad_reply);
    exit (EXIT_FAILURE);
  case EXTENT_WALK_NO_EXTENTS:
    fprintf (stderr, "%s: --map: server did not return any extents\n",
             progname);
    exit (EXIT_FAILURE);
  }
}

void
do_map (struct nbd_handle *nbd)
{
  struct extent_list l = { 0 };
  int64_t size;

  if (nbd_aio_is_negotiating (nbd) && nbd_opt_go (nbd) == -1)
    die_nbd ();
  if (nbd_can_meta_context (nbd, map_context) < 1) {
    fprintf (stderr, "%s: --map: server does not support metadata "
             "context \"%s\"\n", progname, map_context);
    exit (EXIT_FAILURE);
  }
  size = nbd_get_size (nbd);
  if (size == -1)
    die_nbd ();
  collect_extents (nbd, size, &l);
  if (map_totals)
    print_totals (&l, size);
  else
    print_extents (&l);
  free (l.ptr);
}
