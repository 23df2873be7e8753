/* basic-connect-uri-unix.c: test nbd+unix:// URIs, with and without export. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Connect to URI; the info plugin serves the export name as data, so
 * check that EXPORT is what the server received, and the handle's view.
 */
static void
check_uri (const char *uri, const char *export)
{
  struct nbd_handle *h;
  char *name;

  h = connect_uri_ready (uri);

  name = nbd_get_export_name (h);
  CHECK (name != NULL);
  if (strcmp (name, export) != 0)
    FAIL ("%s: export name \"%s\", expected \"%s\"", uri, name, export);
  free (name);

  check_served_export (h, uri, export);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  const char *args[] = { "info", "mode=exportname", NULL };
  char uri[256];

  requires_program ("nbdkit");
  start_server (listen_unix (), args);

  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  check_uri (uri, "");
  snprintf (uri, sizeof uri, "nbd+unix:///hello?socket=%s", server_sock);
  check_uri (uri, "hello");
  snprintf (uri, sizeof uri, "nbd+unix:///a%%20b/c?socket=%s", server_sock);
  check_uri (uri, "a b/c");
  snprintf (uri, sizeof uri, "nbd+unix://?socket=%s", server_sock);
  check_uri (uri, "");
  /* Scheme and query keys are case-insensitive, as in libnbd. */
  snprintf (uri, sizeof uri, "NBD+UNIX:///?SOCKET=%s", server_sock);
  check_uri (uri, "");

  exit (EXIT_SUCCESS);
}
