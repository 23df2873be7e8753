/* basic-connect-tcp-refused.c: test a TCP port nobody listens on fails fast. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

int
main (void)
{
  struct nbd_handle *h;
  char port[16];
  int fd;

  /* Hold the port, bound but not listening, so connecting is refused. */
  fd = bind_loopback (AF_INET, port, sizeof port, 0);
  CHECK (fd >= 0);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_tcp (h, "127.0.0.1", port) == -1);
  CHECK_ERROR (ECONNREFUSED, "nbd_connect_tcp: ");
  /* libnbd returns the handle to the created state here, not dead. */
  CHECK (nbd_aio_is_ready (h) == 0);
  CHECK (nbd_get_size (h) == -1);
  nbd_close (h);

  /* A service name that cannot resolve fails too (errno unspecified). */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_tcp (h, "127.0.0.1", "not-a-port-name") == -1);
  CHECK (nbd_get_error () != NULL);
  CHECK (strncmp (nbd_get_error (), "nbd_connect_tcp: ", 17) == 0);
  nbd_close (h);

  close (fd);
  exit (EXIT_SUCCESS);
}
