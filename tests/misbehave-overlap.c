/* misbehave-overlap.c: overlapping read chunks fail the read with EPROTO. */
/* A server sending chunks whose lengths add up to the request, but
 * covering the second quarter twice and the last quarter never.
 * Expected: the read fails with EPROTO.  libnbd (1.14 and 1.22) only
 * counts bytes, so it reports success there: this test fails against
 * libnbd, and our library must track coverage, not a byte count.
 */
#define SCENARIO "overlap"

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <libgen.h>
#include <time.h>

#include <libnbd.h>

#include "test-common.h"

#define DISK_SIZE (1024 * 1024)

/* Where fake-server is: $builddir, else next to this program. */
static inline void
fake_server_path (const char *argv0, char *path, size_t len)
{
  const char *dir = getenv ("builddir");
  char *copy = strdup (argv0);

  CHECK (copy != NULL);
  snprintf (path, len, "%s/fake-server",
            dir && *dir ? dir : dirname (copy));
  free (copy);
  if (access (path, X_OK) != 0)
    FAIL ("%s is not built", path);
}

/* Start fake-server SCENARIO as the server of a new handle. */
static inline struct nbd_handle *
connect_scenario (const char *argv0, const char *scenario, bool pread_init)
{
  struct nbd_handle *h;
  static char path[4096];
  char *args[] = { path, (char *) scenario, NULL };

  fake_server_path (argv0, path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_pread_initialize (h, pread_init) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server %s: %s", scenario, nbd_get_error ());
  return h;
}

/* True if BUF holds the fake server's pattern for [offset, +count). */
static inline bool
is_pattern (const unsigned char *buf, size_t count, uint64_t offset)
{
  size_t i;
  uint64_t pos, base;

  for (i = 0; i < count; ++i) {
    pos = offset + i;
    base = pos & ~UINT64_C (7);
    if (buf[i] != ((base >> (8 * (7 - (pos & 7)))) & 0xff))
      return false;
  }
  return true;
}

static int
completion_cb (void *user_data, int *error)
{
  int *err = user_data;

  if (*err != -1)
    FAIL ("completion callback called twice");
  *err = *error;
  return 0;
}

/* After the bad reply the handle is either dead, or fully usable. */
static void
check_after (struct nbd_handle *h, unsigned char *buf)
{
  if (nbd_aio_is_dead (h)) {
    CHECK (nbd_pread (h, buf, 512, 0, 0) == -1);
    return;
  }
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0xaa, 65536);
  CHECK (nbd_pread (h, buf, 65536, 8192, 0) == 0);
  CHECK (is_pattern (buf, 65536, 8192));
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static unsigned char buf[65536];
  int err = -1, loops, r;
  int64_t cookie;
  time_t start;

  /* Synchronous, with pread_initialize off: the caller's 0xaa bytes
   * are still in the buffer wherever the server sent nothing, so the
   * read must fail, and with EPROTO.
   */
  h = connect_scenario (argv[0], SCENARIO, false);
  memset (buf, 0xaa, sizeof buf);
  r = nbd_pread (h, buf, sizeof buf, 4096, 0);
  if (r == 0)
    FAIL ("%s: the read succeeded; the buffer %s", SCENARIO,
          is_pattern (buf, sizeof buf, 4096)
          ? "matches the pattern"
          : "holds bytes the server never sent");
  CHECK (r == -1);
  CHECK_ERROR (EPROTO, "nbd_pread: ");
  check_after (h, buf);
  nbd_close (h);

  /* Asynchronous: the command is reported as failed. */
  h = connect_scenario (argv[0], SCENARIO, true);
  cookie = nbd_aio_pread (h, buf, sizeof buf, 4096,
                          (nbd_completion_callback) {
                            .callback = completion_cb, .user_data = &err },
                          0);
  CHECK (cookie > 0);
  start = time (NULL);
  for (loops = 0; err == -1; ++loops) {
    if (loops >= 100000 || time (NULL) - start > 5)
      FAIL ("%s: the read did not complete", SCENARIO);
    if (nbd_poll (h, 1000) == -1)
      break;
  }
  if (err == -1)
    FAIL ("%s: the completion callback never ran", SCENARIO);
  r = nbd_aio_command_completed (h, cookie);
  if (r == 1)
    FAIL ("%s: the read was reported as successful", SCENARIO);
  CHECK (r == -1);
  CHECK (nbd_get_errno () != 0);
  check_after (h, buf);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
