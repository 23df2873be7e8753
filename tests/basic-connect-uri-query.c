/* basic-connect-uri-query.c: the query of an NBD URI is read as libnbd
 * 1.22 reads it: split at '&', and at ';' only where no '&' follows;
 * nbdkit's spellings of booleans.  And libnbd 1.24's parameters:
 * tls-username= over the authority's user, tls-priority= only where
 * allowed, compress= checked everywhere, nbd-port= ignored by +unix.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Connect with "nbd+unix:///e?" QUERY (%s is the socket) and return
 * the handle, whatever happened; *R is what nbd_connect_uri returned.
 */
static struct nbd_handle *
try_query (const char *scheme, const char *query, int *r)
{
  struct nbd_handle *h = nbd_create ();
  char q[512], uri[1024];

  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_local_file (h, true) == 0);
  snprintf (q, sizeof q, query, server_sock);
  snprintf (uri, sizeof uri, "%s:///e?%s", scheme, q);
  *r = nbd_connect_uri (h, uri);
  return h;
}

static void
expect_string (char *s, const char *want)
{
  if (s == NULL || strcmp (s, want) != 0)
    FAIL ("got \"%s\", expected \"%s\"", s ? s : "(null)", want);
  free (s);
}

int
main (void)
{
  const char *args[] = { "info", "mode=exportname", NULL };
  struct nbd_handle *h;
  char uri[1024];
  int r;

  requires_program ("nbdkit");
  setenv ("LOGNAME", "carol", 1);
  start_server (listen_unix (), args);

  /* An '&' follows, so the ';' is part of the socket path. */
  h = try_query ("nbd+unix", "socket=%s;x=1&y=2", &r);
  CHECK (r == -1);
  CHECK_ERROR (ENOENT, "nbd_connect_uri: ");
  nbd_close (h);
  /* No '&' follows: ';' separates. */
  h = try_query ("nbd+unix", "socket=%s;x=1;y=2", &r);
  CHECK (r == 0);
  check_served_export (h, "socket=...;x=1;y=2", "e");
  nbd_close (h);
  /* "x" takes the value "1;socket=...": there is no socket. */
  h = try_query ("nbd+unix", "x=1;socket=%s&y=2", &r);
  CHECK (r == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);
  h = try_query ("nbd+unix", "x=1&=z&&socket=%s;tls-hostname=q", &r);
  CHECK (r == 0);
  expect_string (nbd_get_tls_hostname (h), "q");
  nbd_close (h);

  /* Certificate checking stays on: tls-certificates swallows the
   * tls-verify-peer=false after its ';'.  (The server has no TLS.)
   */
  h = try_query ("nbds+unix", "socket=%s&tls-certificates=certs/client;"
                 "tls-verify-peer=false&tls-hostname=x", &r);
  CHECK (r == -1);
  CHECK (nbd_get_tls_verify_peer (h) == 1);
  expect_string (nbd_get_tls_hostname (h), "x");
  nbd_close (h);

  /* tls-username= (libnbd >= 1.24) wins over the authority's user. */
  h = try_query ("nbd+unix", "socket=%s&tls-username=bob", &r);
  CHECK (r == 0);
  expect_string (nbd_get_tls_username (h), "bob");
  nbd_close (h);
  h = nbd_create ();
  CHECK (h != NULL);
  snprintf (uri, sizeof uri, "nbd+unix://dave@/?socket=%s&tls-username=%s",
            server_sock, "e%20ve");
  CHECK (nbd_connect_uri (h, uri) == 0);
  expect_string (nbd_get_tls_username (h), "e ve");
  snprintf (uri, sizeof uri, "nbd+unix://e%%20ve@/?socket=%s", server_sock);
  expect_string (nbd_get_uri (h), uri);
  nbd_close (h);

  /* tls-priority= is refused unless allowed, with libnbd 1.24's
   * message, and leaves the handle as it was; allowed, it is the
   * handle's priority string, and nbd_get_uri writes it back.
   */
  h = try_query ("nbd+unix", "socket=%s&tls-priority=NORMAL:-VERS-TLS1.2",
                 &r);
  CHECK (r == -1);
  CHECK_ERROR (EPERM, "nbd_connect_uri: overriding TLS priority "
               "(tls-priority) is not allowed, call "
               "nbd_set_uri_allow_tls_priority to enable this");
  CHECK (nbd_aio_is_created (h) == 1);
  nbd_close (h);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_tls_priority (h, true) == 0);
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s&TLS-Priority=%s",
            server_sock, "NORMAL%3A-VERS-TLS1.2%26x");
  CHECK (nbd_connect_uri (h, uri) == 0);
  expect_string (nbd_get_tls_priority (h), "NORMAL:-VERS-TLS1.2&x");
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s&tls-priority=%s",
            server_sock, "NORMAL:-VERS-TLS1.2%26x");
  expect_string (nbd_get_uri (h), uri);
  nbd_close (h);

  /* compress= must be a boolean even where unused; nbd-port= is
   * ignored by +unix.
   */
  h = try_query ("nbd+unix", "socket=%s&compress=maybe", &r);
  CHECK (r == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: could not parse compress "
               "parameter, expecting compress=true|false");
  nbd_close (h);
  h = try_query ("nbd+unix", "socket=%s&compress=true&nbd-port=1", &r);
  CHECK (r == 0);
  nbd_close (h);

  /* Booleans: t, y, f, n as well, in any case. */
  h = try_query ("nbd+unix", "socket=%s&tls-verify-peer=F", &r);
  CHECK (r == 0);
  CHECK (nbd_get_tls_verify_peer (h) == 0);
  nbd_close (h);
  h = try_query ("nbd+unix", "tls-verify-peer=n;tls-verify-peer=Y;"
                 "socket=%s", &r);
  CHECK (r == 0);
  CHECK (nbd_get_tls_verify_peer (h) == 1);
  nbd_close (h);
  h = try_query ("nbd+unix", "socket=%s&tls-verify-peer=maybe", &r);
  CHECK (r == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
