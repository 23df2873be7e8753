/* basic-errors-not-connected.c: test calls needing a connection fail early. */

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
  char buf[512];

  /* Nothing has failed yet in this thread. */
  CHECK (nbd_get_error () == NULL);
  CHECK (nbd_get_errno () == 0);

  h = nbd_create ();
  CHECK (h != NULL);

  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_pread: ");

  CHECK (nbd_pwrite (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_pwrite: ");

  CHECK (nbd_flush (h, 0) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_flush: ");

  CHECK (nbd_aio_pread (h, buf, sizeof buf, 0,
                        NBD_NULL_COMPLETION, 0) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_aio_pread: ");

  CHECK (nbd_get_size (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_get_size: ");

  CHECK (nbd_is_read_only (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_is_read_only: ");

  CHECK (nbd_can_flush (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_can_flush: ");

  /* The failures did not change the state of the handle. */
  CHECK (nbd_aio_is_created (h) == 1);

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
