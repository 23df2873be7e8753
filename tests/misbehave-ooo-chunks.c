/* misbehave-ooo-chunks.c: 1-byte chunks, last first: each byte once. */
/* The server answers a read with one data chunk per byte, in reverse
 * order.  Expected: the read succeeds with the right data.  Then the
 * same, but one byte comes twice and another never: the chunk lengths
 * still add up to the request, yet the read fails with EPROTO, and the
 * handle stays usable.  Every byte exactly once, whatever the order.
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "misbehave-common.h"

#define COUNT 65536
#define OFFSET 4096

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static unsigned char buf[COUNT];

  (void) argc;
  h = connect_scenario (argv[0], "ooo-1byte", false);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, OFFSET, 0) == 0);
  CHECK (is_pattern (buf, sizeof buf, OFFSET));
  CHECK (nbd_stats_chunks_received (h) >= COUNT);
  nbd_close (h);

  h = connect_scenario (argv[0], "ooo-1byte-dup", false);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, OFFSET, 0) == -1);
  CHECK_ERROR (EPROTO, "nbd_pread: ");
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, OFFSET, 0) == 0);
  CHECK (is_pattern (buf, sizeof buf, OFFSET));
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
