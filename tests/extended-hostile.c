/* extended-hostile.c: extended replies the client must refuse: wrong
 * magics for the negotiated style, lengths, offsets, descriptor counts
 * and extents.  Each case checks the exact errno and whether the
 * handle is still usable afterwards (the stream still in step) or
 * dead.
 */
#include <config.h>

#include <stdlib.h>
#include <errno.h>

#include <libnbd.h>

#include "extended-common.h"

enum op { READ, STATUS, STATUS_AT_END };

/* ERR 0: the reply is skipped and the command succeeds. */
static const struct hostile {
  const char *scenario;
  enum op op;
  int err;
  bool dies;
} cases[] = {
  { "simple-magic", READ, EPROTO, true },
  { "structured-magic", READ, EPROTO, true },
  { "huge-length", READ, EPROTO, true },
  { "ext-on-compact", READ, EPROTO, true },
  { "wrong-offset", READ, EPROTO, false },
  { "data-outside", READ, EPROTO, false },
  { "unknown-cookie", READ, 0, false },
  { "bs-narrow", STATUS, EPROTO, false },
  { "bs-count", STATUS, EPROTO, false },
  { "bs-odd", STATUS, EPROTO, false },
  { "bs-zero", STATUS, EPROTO, false },
  { "bs-past-end", STATUS_AT_END, EPROTO, false },
};

static int
extent64_cb (void *opaque, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  uint64_t *flags = opaque;

  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0)
    *flags = entries[0].flags;
  return 0;
}

static int
extent32_cb (void *opaque, const char *metacontext, uint64_t offset,
             uint32_t *entries, size_t nr_entries, int *error)
{
  uint64_t *flags = opaque;

  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0)
    *flags = entries[1] | (UINT64_C (1) << 40);   /* seen, cut */
  return 0;
}

static int
run (struct nbd_handle *h, enum op op)
{
  static char buf[4096];
  uint64_t flags;
  nbd_extent64_callback cb = { .callback = extent64_cb,
                               .user_data = &flags };

  switch (op) {
  case READ:
    return nbd_pread (h, buf, sizeof buf, 8192, 0);
  case STATUS:
    return nbd_block_status_64 (h, 16 * MiB, 0, cb, 0);
  case STATUS_AT_END:
    return nbd_block_status_64 (h, 2 * MiB, EXT_SIZE - 2 * MiB, cb, 0);
  }
  abort ();
}

static void
check_case (const char *argv0, const struct hostile *c)
{
  struct nbd_handle *h = ext_handle ();

  ext_connect (h, argv0, c->scenario);
  if (c->err == 0) {
    if (run (h, c->op) != 0)
      FAIL ("%s: the command failed: %s", c->scenario, nbd_get_error ());
  }
  else if (run (h, c->op) != -1)
    FAIL ("%s: the command succeeded", c->scenario);
  else if (nbd_get_errno () != c->err)
    FAIL ("%s: errno %d, expected %d (%s)", c->scenario, nbd_get_errno (),
          c->err, nbd_get_error ());
  if (c->dies) {
    if (!nbd_aio_is_dead (h))
      FAIL ("%s: the handle is not dead", c->scenario);
    CHECK (run (h, READ) == -1);
  }
  else {
    if (!nbd_aio_is_ready (h))
      FAIL ("%s: the handle is not ready", c->scenario);
    if (run (h, c->op) != 0 || run (h, READ) != 0)
      FAIL ("%s: the handle is not usable: %s", c->scenario,
            nbd_get_error ());
    CHECK (nbd_shutdown (h, 0) == 0);
  }
  nbd_close (h);
  fprintf (stderr, "ok: %s\n", c->scenario);
}

/* Flags wider than 32 bits: the 64-bit callback gets them; the 32-bit
 * one gets them cut, and the command fails with EOVERFLOW.
 */
static void
flags64 (const char *argv0)
{
  struct nbd_handle *h = ext_handle ();
  uint64_t flags = 0;

  ext_connect (h, argv0, "bs-flags64");
  CHECK (nbd_block_status (h, 16 * MiB, 0, (nbd_extent_callback) {
           .callback = extent32_cb, .user_data = &flags }, 0) == -1);
  CHECK_ERROR (EOVERFLOW, "nbd_block_status: ");
  CHECK (flags == (UINT64_C (1) << 40));
  CHECK (nbd_aio_is_ready (h) == 1);
  nbd_close (h);

  h = ext_handle ();
  ext_connect (h, argv0, "bs-flags64");
  CHECK (nbd_block_status_64 (h, 16 * MiB, 0, (nbd_extent64_callback) {
           .callback = extent64_cb, .user_data = &flags }, 0) == 0);
  CHECK (flags == (UINT64_C (1) << 32));
  nbd_close (h);
}

/* With reads in flight when the stream is lost, every one of them
 * fails, its completion called once with an error.
 */
static void
in_flight_dies (const char *argv0, const char *scenario)
{
  struct nbd_handle *h = ext_handle ();
  static char buf[4][512];
  int errs[4], i;

  ext_connect (h, argv0, scenario);
  for (i = 0; i < 4; ++i) {
    errs[i] = -1;
    CHECK (nbd_aio_pread (h, buf[i], 512, i * 512, (nbd_completion_callback) {
             .callback = ext_completion, .user_data = &errs[i] }, 0) > 0);
  }
  while (!nbd_aio_is_dead (h))
    CHECK (nbd_poll (h, -1) != -1 || nbd_aio_is_dead (h));
  for (i = 0; i < 4; ++i)
    if (errs[i] <= 0)
      FAIL ("%s: read %d completion saw %d", scenario, i, errs[i]);
  CHECK (nbd_aio_in_flight (h) == 0);
  nbd_close (h);
}

int
main (int argc, char *argv[])
{
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    check_case (argv[0], &cases[i]);
  in_flight_dies (argv[0], "simple-magic");
  in_flight_dies (argv[0], "huge-length");
  flags64 (argv[0]);
  exit (EXIT_SUCCESS);
}
