/* misbehave-error-chunk.c: an error chunk fails one read with EIO, no more. */
/* The server answers a read with a well-formed NBD_REPLY_TYPE_ERROR
 * chunk carrying EIO.  Expected: that read fails with EIO, and the
 * handle stays usable: the next read returns the right data.
 */

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

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static unsigned char buf[65536];

  h = connect_scenario (argv[0], "error-chunk", false);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 4096, 0) == -1);
  CHECK_ERROR (EIO, "nbd_pread: ");

  /* A well-formed error spoils only its own command. */
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 4096, 0) == 0);
  CHECK (is_pattern (buf, sizeof buf, 4096));
  CHECK (nbd_pread (h, buf, 3, DISK_SIZE - 3, 0) == 0);
  CHECK (is_pattern (buf, 3, DISK_SIZE - 3));
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
