/* io-shutdown.c: after nbd_shutdown the handle closes and refuses work. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M", NULL };
  char buf[512];
  int loops;

  requires_program ("nbdkit");
  memset (buf, 1, sizeof buf);

  h = connect_command_or_fail (args);
  CHECK (nbd_pwrite (h, buf, sizeof buf, 0, 0) == 0);

  CHECK (nbd_shutdown (h, 0) == 0);
  /* nbd_shutdown waits for the server to close the connection. */
  for (loops = 0; !nbd_aio_is_closed (h) && !nbd_aio_is_dead (h); ++loops) {
    if (loops > 50)
      FAIL ("the connection did not close after nbd_shutdown");
    nbd_poll (h, 100);
  }
  CHECK (nbd_aio_is_ready (h) == 0);
  CHECK (nbd_aio_in_flight (h) == 0);

  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (strncmp (nbd_get_error (), "nbd_pread: ", 11) == 0);
  CHECK (nbd_pwrite (h, buf, sizeof buf, 0, 0) == -1);
  CHECK (strncmp (nbd_get_error (), "nbd_pwrite: ", 12) == 0);
  CHECK (nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0) == -1);
  CHECK (nbd_flush (h, 0) == -1);

  /* A second shutdown does not hang or crash. */
  nbd_shutdown (h, 0);
  nbd_close (h);

  /* nbd_aio_disconnect with a command in flight: the command still
   * completes, later ones are refused.
   */
  h = connect_command_or_fail (args);
  CHECK (nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0) > 0);
  CHECK (nbd_aio_disconnect (h, 0) == 0);
  CHECK (nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0) == -1);
  CHECK (nbd_get_errno () == EINVAL);
  for (loops = 0; !nbd_aio_is_closed (h) && !nbd_aio_is_dead (h); ++loops) {
    if (loops > 50)
      FAIL ("the connection did not close after nbd_aio_disconnect");
    nbd_poll (h, 100);
  }
  CHECK (nbd_aio_is_closed (h) == 1);
  CHECK (nbd_aio_peek_command_completed (h) > 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
