/* basic-connect-uri-round-trip.c: every URI nbd_get_uri writes reads
 * back to the same settings.  Connect with URI U, get V; connecting
 * with V must reach the same export with the same TLS settings, and
 * give V again.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* What a handle's settings look like after connecting. */
static void
describe (struct nbd_handle *h, char *buf, size_t len)
{
  char *export = nbd_get_export_name (h);
  char *user = nbd_get_tls_username (h);
  char *host = nbd_get_tls_hostname (h);

  CHECK (export && user && host);
  snprintf (buf, len, "export=[%s] tls=%d user=[%s] host=[%s] verify=%d",
            export, nbd_get_tls (h), user, host,
            nbd_get_tls_verify_peer (h));
  free (export);
  free (user);
  free (host);
}

/* Connect to URI (which may fail: the TLS settings of some are not
 * what the server takes) and return the handle's nbd_get_uri.
 */
static char *
visit (const char *uri, char *settings, size_t len)
{
  struct nbd_handle *h = nbd_create ();
  char *v;
  int r;

  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_local_file (h, true) == 0);
  r = nbd_connect_uri (h, uri);
  describe (h, settings, len);
  if (r == 0) {
    char *export = nbd_get_export_name (h);
    CHECK (export != NULL);
    check_served_export (h, uri, export);
    free (export);
  }
  v = nbd_get_uri (h);
  if (v == NULL)
    FAIL ("%s: nbd_get_uri: %s", uri, nbd_get_error ());
  nbd_close (h);
  return v;
}

static void
round_trip (const char *uri)
{
  static char s1[1024], s2[1024];
  char *v1 = visit (uri, s1, sizeof s1);
  char *v2 = visit (v1, s2, sizeof s2);

  if (strcmp (s1, s2) != 0)
    FAIL ("%s\n  gave %s\n  with %s\n  read back %s", uri, v1, s1, s2);
  if (strcmp (v1, v2) != 0)
    FAIL ("%s\n  gave %s\n  then %s", uri, v1, v2);
  free (v1);
  free (v2);
}

int
main (void)
{
  /* Names the URI syntax gives a meaning to, and a few bytes more. */
  static const char *const names[] = {
    "", "a", "a b", "@", "a@b", "a:b", "%", "%40", "a&b", "a;b", "a=b",
    "a?b", "a#b", "a+b", "a/b", "/a", "-x", "'\"", "\xc3\xa9t\xc3\xa9",
    "~!$()*,", "[::1]",
  };
  static const char *const sockets[] = {
    "sock", "a b", "x&y=1", "x;y", "p%40q", "q#r?s", "\xc3\xa9",
  };
  static const char *const tls[] = {
    "", "&tls-hostname=%s", "&tls-verify-peer=false",
    "&tls-certificates=%s&tls-psk-file=%s&tls-hostname=%s"
    "&tls-verify-peer=no",
  };
  const char *args[] = { "info", "mode=exportname", NULL };
  static char uri[4096], path[512], enc[3][512], extra[2048];
  size_t i, j, k;

  requires_program ("nbdkit");
  setenv ("LOGNAME", "carol", 1);
  start_server (listen_unix (), args);

  for (i = 0; i < sizeof sockets / sizeof sockets[0]; ++i) {
    snprintf (path, sizeof path, "%s/%s", server_dir, sockets[i]);
    if (i > 0)
      CHECK (symlink (server_sock, path) == 0);
    for (j = 0; j < sizeof names / sizeof names[0]; ++j) {
      /* The raw name as export (nbd_get_uri escapes it), user, TLS
       * hostname and file names, each percent-encoded here.
       */
      for (k = 0; k < 3; ++k) {
        const unsigned char *c = (const unsigned char *) (k == 2 ? path
                                                           : names[j]);
        char *o = enc[k];
        for (; *c; ++c)
          o += sprintf (o, "%%%02X", *c);
        *o = '\0';
      }
      for (k = 0; k < sizeof tls / sizeof tls[0]; ++k) {
        snprintf (extra, sizeof extra, tls[k], enc[0], enc[0], enc[0]);
        snprintf (uri, sizeof uri, "nbd+unix://%s@/%s?socket=%s%s",
                  enc[1], enc[0], enc[2], extra);
        round_trip (uri);
        snprintf (uri, sizeof uri, "nbds+unix:///%s?socket=%s%s",
                  enc[0], enc[2], extra);
        round_trip (uri);
      }
    }
  }
  exit (EXIT_SUCCESS);
}
