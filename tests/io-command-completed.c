/* io-command-completed.c: nbd_aio_command_completed for cookies that
 * are not done, never issued, or already retired, and the message of a
 * failed command, as in libnbd 1.22.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  char *argv[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=error",
                   "memory", "1M", "error-pwrite=EIO",
                   "error-pwrite-rate=100%", NULL };
  struct nbd_handle *h = nbd_create ();
  char buf[512];
  int64_t rd, wr;
  int r;

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, argv) == 0);
  /* Cookie 0 is the only invalid one. */
  CHECK (nbd_aio_command_completed (h, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_command_completed: invalid aio cookie 0");
  /* Never issued: not done, so 0, without an error. */
  CHECK (nbd_aio_command_completed (h, 12345) == 0);
  rd = nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0);
  wr = nbd_aio_pwrite (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0);
  CHECK (rd > 0 && wr > 0);
  /* Not done yet (nothing polled): 0, as for a command in flight. */
  CHECK (nbd_aio_command_completed (h, rd) == 0);
  CHECK (nbd_aio_peek_command_completed (h) == 0);
  CHECK_ERROR (0, "nbd_aio_peek_command_completed: no in-flight command "
               "has completed yet");
  while (nbd_aio_in_flight (h) > 0)
    CHECK (nbd_poll (h, -1) >= 0);
  /* The write failed: -1 with the command named, as libnbd does. */
  CHECK (nbd_aio_command_completed (h, wr) == -1);
  CHECK_ERROR (EIO, "nbd_aio_command_completed: write: command failed");
  CHECK (nbd_aio_command_completed (h, rd) == 1);
  /* Retired: 0, like a cookie never issued. */
  CHECK (nbd_aio_command_completed (h, rd) == 0);
  CHECK (nbd_aio_command_completed (h, wr) == 0);
  r = nbd_pwrite (h, buf, sizeof buf, 0, 0);
  CHECK (r == -1);
  CHECK_ERROR (EIO, "nbd_pwrite: write: command failed");
  nbd_close (h);
  printf ("io-command-completed: OK\n");
  return EXIT_SUCCESS;
}
