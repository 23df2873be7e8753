/* misbehave-bs-twice.c: two block status chunks for one context both
 * reach the caller, each with the request's offset.
 */
/* The server answers block status with two base:allocation chunks: the
 * first half of the request, then (DONE) the whole of it.  The protocol
 * allows one chunk per context, but libnbd 1.22 passes every chunk to
 * the extent callback, and so do we: the offset each call carries is
 * the request's (a compact chunk has none of its own), which is what
 * lets a caller see that the second describes the same bytes again.
 * What to make of it is the caller's choice (common/extent-walk.c
 * refuses it).
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "misbehave-common.h"

#define OFFSET (128 * 1024)
#define COUNT (512 * 1024)

struct seen {
  unsigned calls;
  uint64_t offset[2];           /* of the first two calls */
  uint64_t length[2];           /* the sum of their extents */
};

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           nbd_extent *entries, size_t nr_entries, int *error)
{
  struct seen *s = user_data;
  size_t i;

  CHECK (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  if (s->calls < 2) {
    s->offset[s->calls] = offset;
    for (i = 0; i < nr_entries; ++i)
      s->length[s->calls] += entries[i].length;
  }
  s->calls++;
  return 0;
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  struct seen s = { 0 };
  nbd_extent64_callback cb = { .callback = extent_cb, .user_data = &s };

  h = connect_scenario (argv[0], "bs-twice", false);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  CHECK (nbd_block_status_64 (h, COUNT, OFFSET, cb, 0) == 0);
  CHECK (s.calls == 2);
  CHECK (s.offset[0] == OFFSET && s.length[0] == COUNT / 2);
  CHECK (s.offset[1] == OFFSET && s.length[1] == COUNT);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
