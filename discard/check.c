/* check.c: --check, whether the range is already sparse or zero. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "extent-walk.h"
#include "nbddiscard.h"

struct goal {
  uint32_t flag;                /* LIBNBD_STATE_HOLE or _ZERO */
  bool found;                   /* an extent without it was seen */
  uint64_t data;                /* where that extent starts */
};

static bool
look (void *opaque, uint64_t offset, uint64_t length, uint64_t flags)
{
  struct goal *g = opaque;

  (void) length;
  if (flags & g->flag)
    return true;
  g->found = true;
  g->data = offset;
  return false;
}

int
check_range (struct nbd_handle *nbd, const struct options *opts,
             uint64_t offset, uint64_t length)
{
  struct goal g = { .flag = opts->zero ? LIBNBD_STATE_ZERO
                                       : LIBNBD_STATE_HOLE };
  struct extent_walk w = {
    .context = LIBNBD_CONTEXT_BASE_ALLOCATION,
    .max_request = nbd_get_extended_headers_negotiated (nbd) == 1
                   ? UINT64_MAX : COMPACT_MAX_REQUEST,
    .fn = look, .opaque = &g, .pos = offset,
  };

  switch (extent_walk (nbd, &w, offset + length)) {
  case EXTENT_WALK_OK:
    break;
  case EXTENT_WALK_STOPPED:
    if (!opts->quiet)
      printf ("image has data at offset %" PRIu64 "\n", g.data);
    return 1;
  case EXTENT_WALK_NBD_ERROR:
    die_nbd ();
  case EXTENT_WALK_NO_EXTENTS:
    fprintf (stderr, "%s: the server described no extent at offset %"
             PRIu64 "\n", progname, w.request);
    exit (EXIT_FAILURE);
  case EXTENT_WALK_BAD_REPLY:
    fprintf (stderr, "%s: block status at offset %" PRIu64 ": %s\n",
             progname, w.request, w.bad_reply);
    exit (EXIT_FAILURE);
  }
  if (opts->verbose)
    printf ("image is already %s\n", opts->zero ? "zero" : "sparse");
  return 0;
}
