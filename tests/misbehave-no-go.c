/* misbehave-no-go.c: a server that refuses NBD_OPT_GO gets EXPORT_NAME. */
/* The server answers NBD_OPT_GO with NBD_REP_ERR_UNSUP, as servers
 * from before GO do.  Expected: connecting falls back to
 * NBD_OPT_EXPORT_NAME and succeeds, structured replies (agreed before)
 * stay on, and reads return the server's data.  In opt mode the same
 * fallback happens at nbd_opt_go, which succeeds (as in libnbd 1.22).
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static unsigned char buf[65536];

  h = connect_scenario (argv[0], "no-go", false);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == DISK_SIZE);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 8192, 0) == 0);
  CHECK (is_pattern (buf, sizeof buf, 8192));
  nbd_close (h);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  {
    static char path[4096];
    char *server[] = { path, "no-go", NULL };

    fake_server_path (argv[0], path, sizeof path);
    CHECK (nbd_connect_command (h, server) == 0);
  }
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == DISK_SIZE);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 8192, 0) == 0);
  CHECK (is_pattern (buf, sizeof buf, 8192));
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
