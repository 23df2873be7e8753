/* basic-connect-tcp.c: test (aio_)connect_tcp over IPv4 and IPv6 loopback. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Serve on the loopback of FAMILY and connect to HOST; 0 if skipped. */
static int
try_family (int family, const char *host, const char *size, int64_t expect)
{
  struct nbd_handle *h;
  const char *args[] = { "null", size, NULL };
  char port[16];
  int fd;

  fd = bind_loopback (family, port, sizeof port, 1);
  if (fd == -1) {
    fprintf (stderr, "%s not available, not tested\n", host);
    return 0;
  }
  start_server (fd, args);

  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_tcp (h, host, port) == -1)
    FAIL ("nbd_connect_tcp (%s, %s): %s", host, port, nbd_get_error ());
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == expect);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  /* The same through nbd_aio_connect_tcp and nbd_poll. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_aio_connect_tcp (h, host, port) == 0);
  while (nbd_aio_is_connecting (h))
    CHECK (nbd_poll (h, -1) != -1);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == expect);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  stop_server ();
  return 1;
}

int
main (void)
{
  requires_program ("nbdkit");

  if (!try_family (AF_INET, "127.0.0.1", "size=1048576", 1048576))
    FAIL ("IPv4 loopback is not available");
  try_family (AF_INET6, "::1", "size=2097152", 2097152);

  exit (EXIT_SUCCESS);
}
