/* extended-filter.c: nbd_block_status_filter sends NBD_CMD_FLAG_PAYLOAD_LEN
 * with the ids of the chosen contexts, and only those are reported.
 */
#include <config.h>

#include <stdlib.h>
#include <errno.h>

#include <libnbd.h>

#include "extended-common.h"

/* Which contexts the callback saw, and base:allocation's first extent. */
struct seen {
  int base, inverse;
  uint64_t len, flags;
};

static int
extent64_cb (void *opaque, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  struct seen *s = opaque;

  CHECK (nr_entries > 0);
  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0) {
    s->base++;
    s->len = entries[0].length;
    s->flags = entries[0].flags;
  }
  else if (strcmp (metacontext, "x-ext:inverse") == 0)
    s->inverse++;
  else
    FAIL ("unexpected context %s", metacontext);
  return 0;
}

static struct seen
filtered (struct nbd_handle *h, char **contexts, uint64_t count, int want)
{
  struct seen s = { 0 };
  int r = nbd_block_status_filter (h, count, 0, contexts,
                                   (nbd_extent64_callback) {
                                     .callback = extent64_cb,
                                     .user_data = &s }, 0);
  CHECK (r == want);
  return s;
}

int
main (int argc, char *argv[])
{
  char *base[] = { LIBNBD_CONTEXT_BASE_ALLOCATION, NULL };
  char *inverse[] = { "x-ext:inverse", NULL };
  char *both[] = { "x-ext:inverse", LIBNBD_CONTEXT_BASE_ALLOCATION, NULL };
  char *unknown[] = { "qemu:dirty-bitmap:x", NULL };
  struct nbd_handle *h = ext_handle ();
  struct seen s;

  ext_connect (h, argv[0], "good");
  CHECK (nbd_can_block_status_payload (h) == 1);
  CHECK (nbd_zero (h, 4 * GiB + 4 * MiB, 4 * MiB, 0) == 0);

  s = filtered (h, base, EXT_SIZE, 0);
  CHECK (s.base == 1 && s.inverse == 0);
  CHECK (s.len == 4 * MiB && s.flags == 0);
  s = filtered (h, inverse, EXT_SIZE, 0);
  CHECK (s.base == 0 && s.inverse == 1);
  s = filtered (h, both, EXT_SIZE, 0);
  CHECK (s.base == 1 && s.inverse == 1);

  /* A context that was not negotiated is refused before sending. */
  filtered (h, unknown, EXT_SIZE, -1);
  CHECK_ERROR (EINVAL, "nbd_block_status_filter: ");
  CHECK (nbd_aio_in_flight (h) == 0);

  /* Strict COMMANDS without AUTO_FLAG: PAYLOAD_LEN is the caller's. */
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_COMMANDS) == 0);
  filtered (h, base, EXT_SIZE, -1);
  CHECK_ERROR (EINVAL, "nbd_block_status_filter: ");
  CHECK (nbd_block_status_filter (h, MiB, 0, base, (nbd_extent64_callback) {
           .callback = extent64_cb, .user_data = &s },
           LIBNBD_CMD_FLAG_PAYLOAD_LEN) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  /* A server without NBD_FLAG_BLOCK_STAT_PAYLOAD: strict mode refuses. */
  h = ext_handle ();
  ext_connect (h, argv[0], "no-payload");
  CHECK (nbd_get_extended_headers_negotiated (h) == 1);
  CHECK (nbd_can_block_status_payload (h) == 0);
  filtered (h, base, MiB, -1);
  CHECK_ERROR (EINVAL, "nbd_block_status_filter: ");
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
