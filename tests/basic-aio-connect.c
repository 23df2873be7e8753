/* basic-aio-connect.c: test the nbd_aio_connect_* calls driven by nbd_poll. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Run the handle until it stops connecting; check it is ready. */
static void
finish (struct nbd_handle *h, const char *what, int64_t size)
{
  while (nbd_aio_is_connecting (h)) {
    if (nbd_poll (h, -1) == -1)
      FAIL ("%s: nbd_poll: %s", what, nbd_get_error ());
  }
  if (!nbd_aio_is_ready (h))
    FAIL ("%s: not ready after connecting: %s (%s)", what,
          nbd_connection_state (h),
          nbd_get_error () ? nbd_get_error () : "no error");
  if (nbd_get_size (h) != size)
    FAIL ("%s: wrong size %" PRIi64, what, nbd_get_size (h));
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  struct nbd_handle *h;
  const char *args[] = { "memory", "size=8M", NULL };
  char *command[] = { "nbdkit", "-s", "--exit-with-parent",
                      "null", "size=9M", NULL };
  char *activation[] = { "nbdkit", "-f", "--exit-with-parent",
                         "null", "size=10M", NULL };
  char uri[256];
  int fd;

  requires_program ("nbdkit");
  start_server (listen_unix (), args);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_aio_connect_unix (h, server_sock) == 0);
  finish (h, "nbd_aio_connect_unix", 8 << 20);

  h = nbd_create ();
  CHECK (h != NULL);
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  CHECK (nbd_aio_connect_uri (h, uri) == 0);
  finish (h, "nbd_aio_connect_uri", 8 << 20);

  h = nbd_create ();
  CHECK (h != NULL);
  fd = connect_server_unix ();
  CHECK (nbd_aio_connect_socket (h, fd) == 0);
  finish (h, "nbd_aio_connect_socket", 8 << 20);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_aio_connect_command (h, command) == 0);
  finish (h, "nbd_aio_connect_command", 9 << 20);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_aio_connect_systemd_socket_activation (h, activation) == 0);
  finish (h, "nbd_aio_connect_systemd_socket_activation", 10 << 20);

  exit (EXIT_SUCCESS);
}
