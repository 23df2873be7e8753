/* basic-connect-command.c: test nbd_connect_command and nbd_kill_subprocess. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  int i;
  char buf[512];
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "null", "size=7M",
                   NULL };
  char *missing[] = { "/nonexistent/basic-connect-command", NULL };

  requires_program ("nbdkit");

  h = nbd_create ();
  CHECK (h != NULL);

  /* No subprocess yet. */
  CHECK (nbd_kill_subprocess (h, 0) == -1);
  CHECK_ERROR (ESRCH, "nbd_kill_subprocess: ");

  CHECK (nbd_connect_command (h, args) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 7 * 1024 * 1024);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);

  /* Kill the server.  The signal is asynchronous, so requests may
   * still be answered for a moment, but the connection must then fail.
   */
  CHECK (nbd_kill_subprocess (h, SIGKILL) == 0);
  for (i = 0; i < 1000000; ++i)
    if (nbd_pread (h, buf, sizeof buf, 0, 0) == -1)
      break;
  if (i == 1000000)
    FAIL ("server still answering after nbd_kill_subprocess");
  CHECK (nbd_aio_is_ready (h) == 0);
  nbd_close (h);

  /* Close also reaps a live subprocess; signum 0 means SIGTERM. */
  h = connect_command_or_fail (args);
  CHECK (nbd_kill_subprocess (h, 0) == 0);
  nbd_close (h);

  /* A command that cannot run gives an error, not a hang. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, missing) == -1);
  CHECK (nbd_aio_is_ready (h) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
