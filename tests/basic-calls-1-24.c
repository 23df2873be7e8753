/* basic-calls-1-24.c: the calls new in libnbd 1.24, as its pages say:
 * their defaults, the states they may be called in, and their effect
 * (nbd-port= over TCP included, where the port is checked for real).
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

static void
expect_string (char *s, const char *want)
{
  if (s == NULL || strcmp (s, want) != 0)
    FAIL ("got \"%s\", expected \"%s\"", s ? s : "(null)", want);
  free (s);
}

/* The five calls on a handle just created. */
static void
check_created (void)
{
  struct nbd_handle *h = nbd_create ();
  char name[2048];
  ssize_t size, size2;
  char *p;

  CHECK (h != NULL);
  /* "" unless --with-extra was given: the build's string. */
  CHECK (strcmp (nbd_get_version_extra (h), LIBNBD_VERSION_EXTRA) == 0);

  /* An estimate that counts the strings the handle holds. */
  size = nbd_get_handle_size (h);
  CHECK (size >= (ssize_t) sizeof (void *));
  memset (name, 'a', sizeof name - 1);
  name[sizeof name - 1] = '\0';
  CHECK (nbd_set_export_name (h, name) == 0);
  size2 = nbd_get_handle_size (h);
  if (size2 < size + (ssize_t) sizeof name - 1)
    FAIL ("handle size %zd, then %zd with a %zu byte export name",
          size, size2, sizeof name - 1);

  /* The default: NORMAL, whatever cipher order this machine gets. */
  p = nbd_get_tls_priority (h);
  CHECK (p != NULL);
  if (strcmp (p, TLS_PRIORITY) != 0 &&
      strncmp (p, "NORMAL:-CIPHER-ALL:+", 20) != 0)
    FAIL ("default TLS priority %s", p);
  free (p);
  /* Whatever is set comes back exactly, even "", unchecked. */
  CHECK (nbd_set_tls_priority (h, "") == 0);
  expect_string (nbd_get_tls_priority (h), "");
  CHECK (nbd_set_tls_priority (h, "not a priority::") == 0);
  expect_string (nbd_get_tls_priority (h), "not a priority::");
  CHECK (nbd_set_tls_priority (h, "NORMAL:-VERS-TLS1.3") == 0);
  expect_string (nbd_get_tls_priority (h), "NORMAL:-VERS-TLS1.3");
  CHECK (nbd_set_uri_allow_tls_priority (h, true) == 0);
  CHECK (nbd_set_uri_allow_tls_priority (h, false) == 0);
  nbd_close (h);
}

/* After connecting: the setters refuse, the getters still answer. */
static void
check_connected (void)
{
  struct nbd_handle *h = nbd_create ();
  char uri[256];

  CHECK (h != NULL);
  CHECK (nbd_set_tls_priority (h, "NORMAL:%COMPAT") == 0);
  CHECK (nbd_connect_unix (h, server_sock) == 0);
  CHECK (nbd_get_handle_size (h) > 0);
  CHECK (strcmp (nbd_get_version_extra (h), LIBNBD_VERSION_EXTRA) == 0);
  expect_string (nbd_get_tls_priority (h), "NORMAL:%COMPAT");
  /* As libnbd 1.24: a string set is written back (percent-encoded),
   * only where URIs may carry it.
   */
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  expect_string (nbd_get_uri (h), uri);
  nbd_close (h);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_tls_priority (h, "NORMAL:%COMPAT") == 0);
  CHECK (nbd_set_uri_allow_tls_priority (h, true) == 0);
  CHECK (nbd_connect_unix (h, server_sock) == 0);
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s"
            "&tls-priority=NORMAL:%%25COMPAT", server_sock);
  expect_string (nbd_get_uri (h), uri);
  CHECK (nbd_set_tls_priority (h, "NORMAL") == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls_priority: invalid state: ");
  CHECK (nbd_set_uri_allow_tls_priority (h, true) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_tls_priority: invalid state: ");
  CHECK (nbd_shutdown (h, 0) == 0);
  CHECK (nbd_set_tls_priority (h, "NORMAL") == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls_priority: invalid state: ");
  expect_string (nbd_get_tls_priority (h), "NORMAL:%COMPAT");
  nbd_close (h);
}

/* nbd-port= over TCP wins over the authority's port. */
static void
check_nbd_port (void)
{
  const char *args[] = { "null", "size=4096", NULL };
  char port[16], refused_port[16], uri[256];
  struct nbd_handle *h;
  int fd, dead;

  fd = bind_loopback (AF_INET, port, sizeof port, 1);
  dead = bind_loopback (AF_INET, refused_port, sizeof refused_port, 0);
  if (fd == -1 || dead == -1) {
    printf ("no IPv4 loopback: nbd-port= over TCP not checked\n");
    return;
  }
  start_server (fd, args);
  h = nbd_create ();
  CHECK (h != NULL);
  snprintf (uri, sizeof uri, "nbd://127.0.0.1:%s/?nbd-port=%s",
            refused_port, port);
  if (nbd_connect_uri (h, uri) == -1)
    FAIL ("%s: %s", uri, nbd_get_error ());
  CHECK (nbd_get_size (h) == 4096);
  snprintf (uri, sizeof uri, "nbd://127.0.0.1:%s/", port);
  expect_string (nbd_get_uri (h), uri);
  nbd_close (h);
  close (dead);

  /* A port number out of range, or none, is refused before connecting. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, "nbd://127.0.0.1/?nbd-port=65536") == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: NBD URI nbd-port=65536 ");
  CHECK (nbd_connect_uri (h, "nbd://127.0.0.1/?nbd-port=") == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: NBD URI nbd-port= ");
  CHECK (nbd_aio_is_created (h) == 1);
  /* vsock: 32 bit ports, checked as libnbd 1.24 does. */
  if (nbd_supports_vsock (h)) {
    CHECK (nbd_connect_uri (h, "nbd+vsock:///?nbd-port=x") == -1);
    CHECK_ERROR (EINVAL, "nbd_connect_uri: cannot parse vsock port from "
                 "nbd-port: x");
    CHECK (nbd_connect_uri (h, "nbd+vsock:///?nbd-port=4294967296") == -1);
    CHECK_ERROR (EINVAL, "nbd_connect_uri: cannot parse vsock port ");
  }
  nbd_close (h);
}

int
main (void)
{
  const char *args[] = { "null", "size=1M", NULL };

  requires_program ("nbdkit");
  check_created ();
  start_server (listen_unix (), args);
  check_connected ();
  stop_server ();
  check_nbd_port ();
  exit (EXIT_SUCCESS);
}
