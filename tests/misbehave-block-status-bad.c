/* misbehave-block-status-bad.c: bogus extents never reach the caller. */
/* The server answers block status with a zero length extent and one
 * running past the end of the export.  Expected: the command fails
 * (any errno), or it succeeds without the callback ever seeing those
 * extents (dropped or clamped); afterwards the handle is dead or works.
 * libnbd 1.14 passes the raw extents to the callback: fails there.
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "misbehave-common.h"

struct seen {
  unsigned calls;
  int zero_length;              /* saw an extent of length 0 */
  uint64_t end;                 /* end of the last extent seen */
};

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  struct seen *s = user_data;
  size_t i;

  s->calls++;
  s->end = offset;
  for (i = 0; i + 1 < nr_entries; i += 2) {
    if (entries[i] == 0)
      s->zero_length = 1;
    s->end += entries[i];
  }
  return 0;
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  struct seen s = { 0 };
  static unsigned char buf[4096];
  int r;

  h = connect_scenario (argv[0], "block-status-bad", false);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  r = nbd_block_status (h, 65536, 0,
                        (nbd_extent_callback) { .callback = extent_cb,
                                                .user_data = &s }, 0);
  if (r == 0) {
    /* Succeeding is fine only if the caller never saw the bad extents. */
    if (s.zero_length)
      FAIL ("the extent callback was given a zero length extent");
    if (s.end > DISK_SIZE)
      FAIL ("the extent callback was given extents up to %llu, past the "
            "end of the export", (unsigned long long) s.end);
  }
  else {
    CHECK (r == -1);
    CHECK (nbd_get_errno () != 0);
    CHECK (strncmp (nbd_get_error (), "nbd_block_status: ", 18) == 0);
  }

  /* The handle is dead, or works. */
  if (nbd_aio_is_dead (h))
    CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  else {
    CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
    CHECK (is_pattern (buf, sizeof buf, 0));
  }
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
