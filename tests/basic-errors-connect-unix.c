/* basic-errors-connect-unix.c: test connecting to a missing or dead socket. */

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
  struct sockaddr_un addr;
  char path[128];
  int fd;

  make_server_dir ();

  /* No such socket. */
  snprintf (path, sizeof path, "%s/missing", server_dir);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, path) == -1);
  CHECK_ERROR (ENOENT, "nbd_connect_unix: ");
  CHECK (nbd_aio_is_dead (h) == 1);
  CHECK (nbd_get_size (h) == -1);
  nbd_close (h);

  /* A socket that exists but nobody listens on. */
  snprintf (server_sock, sizeof server_sock, "%s/sock", server_dir);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  CHECK (fd >= 0);
  addr = unix_address (server_sock);
  CHECK (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, server_sock) == -1);
  CHECK_ERROR (ECONNREFUSED, "nbd_connect_unix: ");
  CHECK (nbd_aio_is_dead (h) == 1);
  nbd_close (h);

  close (fd);
  exit (EXIT_SUCCESS);
}
