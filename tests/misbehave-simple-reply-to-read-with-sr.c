/* misbehave-simple-reply-to-read-with-sr.c: safe with a simple read reply. */
/* The server answers a read with a simple reply and data although
 * structured replies were negotiated.  The NBD spec forbids that for a
 * successful read.  Expected, as in libnbd 1.22: the client reads the
 * data that follows (the stream stays in step), fails the read with
 * EPROTO, and the next read works.
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <time.h>

#include <libnbd.h>

#include "misbehave-common.h"

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
  /* The read fails with EPROTO, as in libnbd 1.22; the data that
   * followed was consumed, so the stream is still in step.
   */
  CHECK (r == -1);
  CHECK (nbd_get_errno () == EPROTO);
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, 4096, 0, 0) == 0);
  CHECK (is_pattern (buf, 4096, 0));
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
