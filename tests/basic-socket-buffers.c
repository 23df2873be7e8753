/* basic-socket-buffers.c: a Unix socket the library connects itself
 * (nbd_connect_unix, nbd+unix:// URIs) gets a 2 MiB send buffer, as in
 * libnbd 1.24; a socket the program passes in keeps the one it has.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* SO_SNDBUF of FD as the kernel reports it (twice what was set). */
static int
sndbuf (int fd)
{
  int v = 0;
  socklen_t len = sizeof v;

  CHECK (getsockopt (fd, SOL_SOCKET, SO_SNDBUF, &v, &len) == 0);
  return v;
}

/* What the kernel makes of asking for 2 MiB (capped by wmem_max), and
 * what a Unix socket has by default.
 */
static void
reference (int *asked, int *dflt)
{
  int sv[2], size = 2 * 1024 * 1024;

  CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  *dflt = sndbuf (sv[0]);
  CHECK (setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size) == 0);
  *asked = sndbuf (sv[0]);
  close (sv[0]);
  close (sv[1]);
}

int
main (void)
{
  const char *args[] = { "memory", "size=1M", NULL };
  struct nbd_handle *h;
  char uri[256];
  int asked, dflt, fd;

  requires_program ("nbdkit");
  reference (&asked, &dflt);
  if (asked == dflt) {
    printf ("%s: SKIP: SO_SNDBUF cannot be raised here (wmem_max)\n",
            __FILE__);
    exit (77);
  }
  start_server (listen_unix (), args);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, server_sock) == 0);
  CHECK (sndbuf (nbd_aio_get_fd (h)) == asked);
  nbd_close (h);

  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, uri) == 0);
  CHECK (sndbuf (nbd_aio_get_fd (h)) == asked);
  nbd_close (h);

  fd = connect_server_unix ();
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_socket (h, fd) == 0);
  CHECK (sndbuf (nbd_aio_get_fd (h)) == dflt);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
