/* conform-full-info.c: the canonical export name is only what the
 * server said, as in libnbd 1.22.
 */
/* fake-server answers NBD_OPT_GO without NBD_INFO_NAME even when the
 * client asks for full info: nbd_get_canonical_export_name fails with
 * ENOTSUP rather than echoing the name the client asked for.
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>

#include <libnbd.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  static char path[4096];
  char *server[] = { path, "good", NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  fake_server_path (argv[0], path, sizeof path);
  CHECK (nbd_set_full_info (h, true) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_get_canonical_export_name (h) == NULL);
  CHECK_ERROR (ENOTSUP, "nbd_get_canonical_export_name: ");
  nbd_close (h);
  return EXIT_SUCCESS;
}
