/* basic-settings-more.c: the remaining settings and getters, with the
 * defaults and answers of libnbd 1.22: opt mode, the handshake
 * requests, the socket activation name, the subprocess pid, is_uri,
 * get_uri, uri_allow_local_file and nbd_aio_connect.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

static void
test_defaults (void)
{
  struct nbd_handle *h = nbd_create ();
  char *s;

  CHECK (h != NULL);
  CHECK (nbd_get_opt_mode (h) == 0);
  CHECK (nbd_get_request_block_size (h) == 1);
  CHECK (nbd_get_request_extended_headers (h) == 1);
  CHECK (nbd_get_request_meta_context (h) == 1);
  s = nbd_get_socket_activation_name (h);
  CHECK (s != NULL && strcmp (s, "") == 0);
  free (s);

  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_get_opt_mode (h) == 1);
  CHECK (nbd_set_request_block_size (h, false) == 0);
  CHECK (nbd_get_request_block_size (h) == 0);
  CHECK (nbd_set_request_extended_headers (h, false) == 0);
  CHECK (nbd_get_request_extended_headers (h) == 0);
  CHECK (nbd_set_request_meta_context (h, false) == 0);
  CHECK (nbd_get_request_meta_context (h) == 0);
  CHECK (nbd_set_socket_activation_name (h, "disk0") == 0);
  s = nbd_get_socket_activation_name (h);
  CHECK (s != NULL && strcmp (s, "disk0") == 0);
  free (s);

  /* No subprocess yet. */
  CHECK (nbd_get_subprocess_pid (h) == -1);
  CHECK_ERROR (ESRCH, "nbd_get_subprocess_pid: ");
  nbd_close (h);
}

static void
test_is_uri (void)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_is_uri (h, "nbd://localhost/") == 1);
  CHECK (nbd_is_uri (h, "NBD+UNIX:///?socket=/x") == 1);
  CHECK (nbd_is_uri (h, "nbds+vsock://1:2") == 1);
  CHECK (nbd_is_uri (h, "nbd+ssh://host/disk") == 1);
  CHECK (nbd_is_uri (h, "/dev/sda") == 0);
  CHECK (nbd_is_uri (h, "http://example.com/") == 0);
  CHECK (nbd_is_uri (h, "nbd:") == 0);
  nbd_close (h);
}

/* nbd_aio_connect to a sockaddr_un, then get_uri gives it back. */
static void
test_aio_connect_and_uri (void)
{
  const char *args[] = { "memory", "1M", NULL };
  struct nbd_handle *h = nbd_create ();
  struct sockaddr_un sun = { .sun_family = AF_UNIX };
  char want[256], *uri;

  CHECK (h != NULL);
  start_server (listen_unix (), args);
  strcpy (sun.sun_path, server_sock);
  CHECK (nbd_aio_connect (h, (struct sockaddr *) &sun, sizeof sun) == 0);
  while (nbd_aio_is_connecting (h))
    CHECK (nbd_poll (h, -1) >= 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 1024 * 1024);

  snprintf (want, sizeof want, "nbd+unix:///?socket=%s", server_sock);
  uri = nbd_get_uri (h);
  CHECK (uri != NULL);
  if (strcmp (uri, want) != 0)
    FAIL ("get_uri gave \"%s\", want \"%s\"", uri, want);
  free (uri);
  nbd_close (h);
}

/* A subprocess: its pid, and no URI can describe the connection. */
static void
test_subprocess (void)
{
  char *argv[] = { "nbdkit", "-s", "--exit-with-parent", "null", "1M",
                   NULL };
  struct nbd_handle *h = connect_command_or_fail (argv);
  CHECK (nbd_get_subprocess_pid (h) > 1);
  CHECK (nbd_get_uri (h) == NULL);
  CHECK_ERROR (EINVAL, "nbd_get_uri: ");
  nbd_close (h);
}

/* tls-psk-file names a local file: refused unless allowed. */
static void
test_uri_allow_local_file (void)
{
  struct nbd_handle *h = nbd_create ();
  const char *uri = "nbd+unix:///?socket=/nonexistent&tls-psk-file=/x";

  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, uri) == -1);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_local_file (h, true) == 0);
  /* Accepted now, so the connect itself fails: no such socket. */
  CHECK (nbd_connect_uri (h, uri) == -1);
  CHECK (nbd_get_errno () == ENOENT);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_defaults ();
  test_is_uri ();
  test_aio_connect_and_uri ();
  test_subprocess ();
  test_uri_allow_local_file ();
  exit (EXIT_SUCCESS);
}
