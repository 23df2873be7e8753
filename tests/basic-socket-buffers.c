/* basic-socket-buffers.c: a Unix socket the library connects itself
 * (nbd_connect_unix, nbd+unix:// URIs) gets a 2 MiB send buffer, as in
 * libnbd 1.24; a TCP socket it connects itself (nbd_connect_tcp, nbd://
 * URIs) has Nagle's algorithm off (TCP_NODELAY), as in libnbd 1.22 and
 * 1.24; a socket the program passes in keeps what it has.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

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

/* TCP_NODELAY of FD. */
static int
nodelay (int fd)
{
  int v = -1;
  socklen_t len = sizeof v;

  CHECK (getsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &v, &len) == 0);
  return v != 0;
}

/* A TCP socket connected to 127.0.0.1:PORT by the program. */
static int
tcp_connect_loopback (const char *port)
{
  struct sockaddr_in sin = { .sin_family = AF_INET };
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  CHECK (fd >= 0);
  sin.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  sin.sin_port = htons (atoi (port));
  CHECK (connect (fd, (struct sockaddr *) &sin, sizeof sin) == 0);
  return fd;
}

/* A TCP connection the library makes has Nagle off; a TCP socket the
 * program connects and passes in keeps Nagle on.
 */
static void
check_tcp (void)
{
  const char *args[] = { "memory", "size=1M", NULL };
  struct nbd_handle *h;
  char port[16], uri[64];
  int fd;

  fd = bind_loopback (AF_INET, port, sizeof port, 1);
  if (fd == -1) {
    fprintf (stderr, "no IPv4 loopback here: TCP_NODELAY not tested\n");
    return;
  }
  start_server (fd, args);

  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_tcp (h, "127.0.0.1", port) == -1)
    FAIL ("nbd_connect_tcp: %s", nbd_get_error ());
  CHECK (nodelay (nbd_aio_get_fd (h)) == 1);
  nbd_close (h);

  snprintf (uri, sizeof uri, "nbd://127.0.0.1:%s", port);
  h = connect_uri_ready (uri);
  CHECK (nodelay (nbd_aio_get_fd (h)) == 1);
  nbd_close (h);

  fd = tcp_connect_loopback (port);
  CHECK (nodelay (fd) == 0);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_socket (h, fd) == 0);
  CHECK (nodelay (nbd_aio_get_fd (h)) == 0);
  nbd_close (h);
  stop_server ();
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
  stop_server ();

  check_tcp ();

  exit (EXIT_SUCCESS);
}
