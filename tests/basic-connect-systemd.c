/* basic-connect-systemd.c: test nbd_connect_systemd_socket_activation. */

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
  char buf[16];
  char *args[] = { "nbdkit", "-f", "--exit-with-parent",
                   "info", "mode=exportname", NULL };

  requires_program ("nbdkit");

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_export_name (h, "activated") == 0);
  CHECK (nbd_connect_systemd_socket_activation (h, args) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 9);
  CHECK (nbd_pread (h, buf, 9, 0, 0) == 0);
  CHECK (memcmp (buf, "activated", 9) == 0);

  /* The server is our subprocess. */
  CHECK (nbd_kill_subprocess (h, SIGKILL) == 0);
  for (i = 0; i < 1000000; ++i)
    if (nbd_pread (h, buf, 9, 0, 0) == -1)
      break;
  if (i == 1000000)
    FAIL ("server still answering after nbd_kill_subprocess");
  nbd_close (h);

  /* Closing without shutdown also ends the subprocess. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_export_name (h, "again") == 0);
  CHECK (nbd_connect_systemd_socket_activation (h, args) == 0);
  CHECK (nbd_get_size (h) == 5);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
