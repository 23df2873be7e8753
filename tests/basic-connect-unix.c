/* basic-connect-unix.c: test nbd_connect_unix to nbdkit on a Unix socket. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

int
main (void)
{
  struct nbd_handle *h;
  const char *args[] = { "memory", "size=1234567", NULL };
  const char *proto;

  requires_program ("nbdkit");
  start_server (listen_unix (), args);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, server_sock) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 1234567);
  proto = nbd_get_protocol (h);
  CHECK (proto != NULL && strcmp (proto, "newstyle-fixed") == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
