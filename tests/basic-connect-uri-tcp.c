/* basic-connect-uri-tcp.c: test nbd:// URIs over IPv4 and IPv6 loopback. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Connect to URI and check the export the server saw (info plugin). */
static void
check_uri (const char *uri, const char *export)
{
  struct nbd_handle *h;

  h = connect_uri_ready (uri);
  check_served_export (h, uri, export);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  const char *args[] = { "info", "mode=exportname", NULL };
  char port[16], uri[256];
  int fd;

  requires_program ("nbdkit");

  fd = bind_loopback (AF_INET, port, sizeof port, 1);
  CHECK (fd >= 0);
  start_server (fd, args);
  snprintf (uri, sizeof uri, "nbd://127.0.0.1:%s/", port);
  check_uri (uri, "");
  snprintf (uri, sizeof uri, "nbd://127.0.0.1:%s/disk", port);
  check_uri (uri, "disk");
  snprintf (uri, sizeof uri, "nbd://localhost:%s/x", port);
  check_uri (uri, "x");
  stop_server ();

  fd = bind_loopback (AF_INET6, port, sizeof port, 1);
  if (fd == -1) {
    fprintf (stderr, "IPv6 loopback not available, not tested\n");
    exit (EXIT_SUCCESS);
  }
  start_server (fd, args);
  snprintf (uri, sizeof uri, "nbd://[::1]:%s/six", port);
  check_uri (uri, "six");

  exit (EXIT_SUCCESS);
}
