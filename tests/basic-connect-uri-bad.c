/* basic-connect-uri-bad.c: test bad or disallowed URIs are refused. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Try URI on a new handle with the given policy; expect failure. */
static struct nbd_handle *
refused (const char *uri, uint32_t transports, int tls)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_transports (h, transports) == 0);
  CHECK (nbd_set_uri_allow_tls (h, tls) == 0);
  if (nbd_connect_uri (h, uri) != -1)
    FAIL ("nbd_connect_uri (%s) succeeded", uri);
  CHECK (nbd_aio_is_ready (h) == 0);
  return h;
}

int
main (void)
{
  struct nbd_handle *h;
  const char *args[] = { "memory", "1M", NULL };
  const uint32_t all = LIBNBD_ALLOW_TRANSPORT_MASK;
  char uri[256];

  requires_program ("nbdkit");
  start_server (listen_unix (), args);

  /* Not an NBD URI at all. */
  h = refused ("http://localhost/", all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused ("nbd+unix:///", all, LIBNBD_TLS_ALLOW);   /* no socket= */
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused ("nbd://127.0.0.1:notaport/", all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);

  /* Refused by policy, before connecting: EPERM. */
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  h = refused (uri, LIBNBD_ALLOW_TRANSPORT_TCP, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused (uri, all, LIBNBD_TLS_REQUIRE);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);
  snprintf (uri, sizeof uri, "nbds+unix:///?socket=%s", server_sock);
  h = refused (uri, all, LIBNBD_TLS_DISABLE);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);

  /* The policy is checked before the rest of the URI, as libnbd
   * does: EPERM, not the EINVAL the URI would get otherwise.
   */
  h = refused ("nbd+unix:///", LIBNBD_ALLOW_TRANSPORT_TCP, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused ("nbds+unix:///?tls-verify-peer=maybe", all,
               LIBNBD_TLS_DISABLE);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused ("nbd+vsock://notacid/", LIBNBD_ALLOW_TRANSPORT_UNIX,
               LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EPERM, "nbd_connect_uri: ");
  nbd_close (h);
  /* Then the query parameters in order: the first fault wins. */
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s&tls-certificates=c"
            "&tls-verify-peer=maybe", server_sock);
  h = refused (uri, all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EPERM, "nbd_connect_uri: local file access");
  nbd_close (h);
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s&tls-verify-peer=maybe"
            "&tls-certificates=c", server_sock);
  h = refused (uri, all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);

  /* Stricter than libnbd on purpose: a %00 (libnbd cuts the string
   * there) and a port above 65535 (libnbd wraps it).
   */
  h = refused ("nbd://127.0.0.1%00.evil.example:10809/", all,
               LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);
  h = refused ("nbd://127.0.0.1:65536/", all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (EINVAL, "nbd_connect_uri: ");
  nbd_close (h);

  /* nbds: requires TLS, which this server does not offer: it refuses
   * NBD_OPT_STARTTLS, and there is never a plain connection.
   */
  snprintf (uri, sizeof uri, "nbds+unix:///?socket=%s", server_sock);
  h = refused (uri, all, LIBNBD_TLS_ALLOW);
  CHECK_ERROR (ENOTSUP, "nbd_connect_uri: ");
  nbd_close (h);

  /* The same socket works with a plain URI, so the refusals were ours. */
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, uri) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
