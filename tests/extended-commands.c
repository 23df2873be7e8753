/* extended-commands.c: every command over 32-byte requests and extended
 * replies, with lengths over 4 GiB where the command allows them.
 */
#include <config.h>

#include <stdlib.h>
#include <errno.h>

#include <libnbd.h>

#include "extended-common.h"

/* What the extent callbacks saw for base:allocation. */
struct seen {
  size_t n;
  uint64_t len[8], flags[8];
};

static int
extent64_cb (void *opaque, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  struct seen *s = opaque;
  size_t i;

  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) != 0)
    return 0;
  for (i = 0; i < nr_entries && s->n < 8; ++i, s->n++) {
    s->len[s->n] = entries[i].length;
    s->flags[s->n] = entries[i].flags;
  }
  return 0;
}

static int
extent32_cb (void *opaque, const char *metacontext, uint64_t offset,
             uint32_t *entries, size_t nr_entries, int *error)
{
  struct seen *s = opaque;
  size_t i;

  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) != 0)
    return 0;
  for (i = 0; i + 1 < nr_entries && s->n < 8; i += 2, s->n++) {
    s->len[s->n] = entries[i];
    s->flags[s->n] = entries[i + 1];
  }
  return 0;
}

static void
read_write (struct nbd_handle *h)
{
  static char buf[65536], back[65536];

  memset (buf, 'x', sizeof buf);
  /* LIBNBD_STRICT_AUTO_FLAG (the default) sets PAYLOAD_LEN itself. */
  CHECK (nbd_pwrite (h, buf, sizeof buf, 4096, 0) == 0);
  CHECK (nbd_pwrite (h, buf, 512, 0, LIBNBD_CMD_FLAG_PAYLOAD_LEN) == 0);
  CHECK (nbd_pread (h, back, sizeof back, 4096, 0) == 0);
  CHECK (memcmp (buf, back, sizeof buf) == 0);
  CHECK (nbd_flush (h, 0) == 0);
  CHECK (nbd_cache (h, 5 * GiB, 0, 0) == 0);

  /* Without AUTO_FLAG, strict COMMANDS wants PAYLOAD_LEN on writes. */
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_COMMANDS) == 0);
  CHECK (nbd_pwrite (h, buf, 512, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pwrite: ");
  CHECK (nbd_pwrite (h, buf, 512, 0, LIBNBD_CMD_FLAG_PAYLOAD_LEN) == 0);
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK) == 0);
}

/* Zero 5 GiB from 1 GiB: block status shows one 5 GiB hole. */
static void
big_zero_and_status (struct nbd_handle *h)
{
  struct seen s = { 0 };

  CHECK (nbd_zero (h, 5 * GiB, 1 * GiB, 0) == 0);
  CHECK (nbd_block_status_64 (h, EXT_SIZE, 0, (nbd_extent64_callback) {
           .callback = extent64_cb, .user_data = &s }, 0) == 0);
  CHECK (s.n == 3);
  CHECK (s.len[0] == 1 * GiB && s.flags[0] == 0);
  CHECK (s.len[1] == 5 * GiB && s.flags[1] == 3);
  CHECK (s.len[2] == 2 * GiB && s.flags[2] == 0);

  /* The 32-bit callback: cut at the long extent, as libnbd 1.22. */
  memset (&s, 0, sizeof s);
  CHECK (nbd_block_status (h, EXT_SIZE, 0, (nbd_extent_callback) {
           .callback = extent32_cb, .user_data = &s }, 0) == 0);
  CHECK (s.n == 2);
  CHECK (s.len[0] == 1 * GiB && s.flags[0] == 0);
  CHECK (s.len[1] == (uint64_t) UINT32_MAX + 1 - 64 * MiB && s.flags[1] == 3);
}

/* Trim 6 GiB: everything from 1 GiB is a hole now. */
static void
big_trim (struct nbd_handle *h)
{
  struct seen s = { 0 };

  CHECK (nbd_trim (h, 6 * GiB, 2 * GiB, 0) == 0);
  CHECK (nbd_block_status_64 (h, 7 * GiB, 1 * GiB, (nbd_extent64_callback) {
           .callback = extent64_cb, .user_data = &s }, 0) == 0);
  CHECK (s.n == 1);
  CHECK (s.len[0] == 7 * GiB && s.flags[0] == 3);
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h = ext_handle ();

  ext_connect (h, argv[0], "good");
  CHECK (nbd_get_extended_headers_negotiated (h) == 1);
  read_write (h);
  big_zero_and_status (h);
  big_trim (h);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  /* Compact requests cannot carry more than 32 bits. */
  h = ext_handle ();
  ext_connect (h, argv[0], "absent");
  CHECK (nbd_trim (h, 5 * GiB, 0, 0) == -1);
  CHECK_ERROR (ERANGE, "nbd_trim: ");
  CHECK (nbd_zero (h, 4 * GiB, 0, 0) == -1);
  CHECK_ERROR (ERANGE, "nbd_zero: ");
  CHECK (nbd_trim (h, 2 * GiB, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
