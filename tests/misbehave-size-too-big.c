/* misbehave-size-too-big.c: an export size above INT64_MAX fails connecting. */
/* The server advertises an export of 2^63 bytes, which does not fit
 * the int64_t nbd_get_size returns.  Expected: connecting fails, with
 * an errno and a message naming nbd_connect_command.
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
  static char path[4096];
  char *args[] = { path, "size-too-big", NULL };
  const char *msg;

  fake_server_path (argv[0], path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_command (h, args) != -1)
    FAIL ("connected to a server advertising %llu bytes (size %lld)",
          (unsigned long long) INT64_MAX + 1,
          (long long) nbd_get_size (h));
  msg = nbd_get_error ();
  CHECK (msg != NULL);
  CHECK (strncmp (msg, "nbd_connect_command: ", 21) == 0);
  CHECK (nbd_get_errno () != 0);
  CHECK (nbd_aio_is_ready (h) == 0);
  /* The size is never reported as a negative number. */
  CHECK (nbd_get_size (h) == -1);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
