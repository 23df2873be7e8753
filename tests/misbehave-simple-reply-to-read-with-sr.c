/* misbehave-simple-reply-to-read-with-sr.c: safe with a simple read reply. */
/* The server answers a read with a simple reply and data although
 * structured replies were negotiated.  The NBD spec forbids that for a
 * successful read, and a client cannot tell whether data follows, so
 * this test only asks for safety: no crash, no hang, and a read that
 * succeeds holds exactly the bytes the server sent.
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
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
