/* misbehave-simple-reply-to-read-with-sr.c: safe with a simple read reply. */
/* The server answers a read with a simple reply and data although
 * structured replies were negotiated.  The NBD spec forbids that for a
 * successful read, and a client cannot tell whether data follows, so
 * this test only asks for safety: no crash, no hang, and a read that
 * succeeds holds exactly the bytes the server sent.
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
  int64_t cookie;
  time_t start;
  int loops, r;

  h = connect_scenario (argv[0], "simple-reply-to-read-with-sr", false);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  memset (buf, 0xaa, sizeof buf);
  cookie = nbd_aio_pread (h, buf, sizeof buf, 4096, NBD_NULL_COMPLETION, 0);
  CHECK (cookie > 0);
  start = time (NULL);
  for (loops = 0; (r = nbd_aio_command_completed (h, cookie)) == 0; ++loops) {
    if (loops >= 100000 || time (NULL) - start > 5)
      FAIL ("the read never completed");
    if (nbd_poll (h, 1000) == -1)
      break;
  }
  if (r == 1) {
    /* Taking the data is tolerable only if it is the data sent. */
    if (!is_pattern (buf, sizeof buf, 4096))
      FAIL ("the read succeeded with bytes the server never sent");
  }
  else if (!nbd_aio_is_dead (h)) {
    /* Failed but alive: the stream must still be in step. */
    CHECK (r == -1);
    CHECK (nbd_aio_is_ready (h) == 1);
  }

  /* Either way the next read works or fails cleanly. */
  if (!nbd_aio_is_dead (h)) {
    memset (buf, 0xaa, sizeof buf);
    CHECK (nbd_pread (h, buf, 4096, 0, 0) == 0);
    CHECK (is_pattern (buf, 4096, 0));
  }
  else
    CHECK (nbd_pread (h, buf, 4096, 0, 0) == -1);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
