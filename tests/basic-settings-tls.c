/* basic-settings-tls.c: test TLS settings and the URI TLS policy. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  char *s;

  h = nbd_create ();
  CHECK (h != NULL);

  CHECK (nbd_get_tls (h) == LIBNBD_TLS_DISABLE);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_DISABLE) == 0);
  CHECK (nbd_supports_tls (h) == 1);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_ALLOW) == 0);
  CHECK (nbd_get_tls (h) == LIBNBD_TLS_ALLOW);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_REQUIRE) == 0);
  CHECK (nbd_get_tls (h) == LIBNBD_TLS_REQUIRE);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_DISABLE) == 0);
  CHECK (nbd_get_tls (h) == LIBNBD_TLS_DISABLE);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_REQUIRE + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");

  /* Verify peer: true by default. */
  CHECK (nbd_get_tls_verify_peer (h) == 1);
  CHECK (nbd_set_tls_verify_peer (h, false) == 0);
  CHECK (nbd_get_tls_verify_peer (h) == 0);
  CHECK (nbd_set_tls_verify_peer (h, true) == 0);
  CHECK (nbd_get_tls_verify_peer (h) == 1);

  /* Username unset: $LOGNAME, else the login name from getlogin_r,
   * failing as it does (ENOTTY without a terminal), as libnbd does.
   * Never $USER.
   */
  setenv ("LOGNAME", "carol", 1);
  s = nbd_get_tls_username (h);
  CHECK (s != NULL && strcmp (s, "carol") == 0);
  free (s);
  unsetenv ("LOGNAME");
  setenv ("USER", "not-the-login-name", 1);
  {
    char login[256];
    int err = getlogin_r (login, sizeof login);

    s = nbd_get_tls_username (h);
    if (err == 0)
      CHECK (s != NULL && strcmp (s, login) == 0);
    else {
      CHECK (s == NULL);
      CHECK_ERROR (err, "nbd_get_tls_username: getlogin_r");
    }
    free (s);
  }

  /* Username: allowed with or without TLS support; returned copied. */
  CHECK (nbd_set_tls_username (h, "alice") == 0);
  s = nbd_get_tls_username (h);
  CHECK (s != NULL && strcmp (s, "alice") == 0);
  free (s);
  CHECK (nbd_set_tls_username (h, "bob") == 0);
  s = nbd_get_tls_username (h);
  CHECK (s != NULL && strcmp (s, "bob") == 0);
  free (s);

  /* Hostname (1.22): empty until set or learned from a connect call,
   * then a copy of what was set.
   */
  s = nbd_get_tls_hostname (h);
  CHECK (s != NULL && strcmp (s, "") == 0);
  free (s);
  CHECK (nbd_set_tls_hostname (h, "server.example.com") == 0);
  s = nbd_get_tls_hostname (h);
  CHECK (s != NULL && strcmp (s, "server.example.com") == 0);
  free (s);

  /* Files are only opened when connecting. */
  CHECK (nbd_set_tls_certificates (h, "/nonexistent/dir") == 0);
  CHECK (nbd_set_tls_psk_file (h, "/nonexistent/keys.psk") == 0);

  /* Nothing negotiated before connecting: the call is not allowed. */
  CHECK (nbd_get_tls_negotiated (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_get_tls_negotiated: ");

  /* URI TLS policy: the three values, nothing else. */
  CHECK (nbd_set_uri_allow_tls (h, LIBNBD_TLS_DISABLE) == 0);
  CHECK (nbd_set_uri_allow_tls (h, LIBNBD_TLS_REQUIRE) == 0);
  CHECK (nbd_set_uri_allow_tls (h, LIBNBD_TLS_ALLOW) == 0);
  CHECK (nbd_set_uri_allow_tls (h, 3) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_tls: ");
  CHECK (nbd_set_uri_allow_tls (h, -1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_tls: ");

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
