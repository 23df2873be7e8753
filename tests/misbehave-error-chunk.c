/* misbehave-error-chunk.c: an error chunk fails one read with EIO, no more. */
/* The server answers a read with a well-formed NBD_REPLY_TYPE_ERROR
 * chunk carrying EIO.  Expected: that read fails with EIO, and the
 * handle stays usable: the next read returns the right data.
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "misbehave-common.h"

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
