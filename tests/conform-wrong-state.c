/* conform-wrong-state.c: a call refused for the handle's state fails
 * with ENOTCONN before connecting and EINVAL in every other wrong state,
 * as libnbd 1.22 does.
 */
#include <config.h>

#include <libnbd.h>

#include "test-common.h"

static char *nbdkit[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                          "1M", NULL };

/* A new handle: not connected yet. */
static void
test_created (void)
{
  struct nbd_handle *h = nbd_create ();
  char buf[512];

  CHECK (h != NULL);
  CHECK (nbd_opt_go (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_opt_go: ");
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_pread: ");
  nbd_close (h);
}

/* Connected: the negotiating calls and notify-write in READY refuse,
 * and a second disconnect is one command too many.
 */
static void
test_ready (void)
{
  struct nbd_handle *h = nbd_create ();
  char buf[512];

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, nbdkit) == 0);
  CHECK (nbd_opt_go (h) == -1);
  CHECK_ERROR (EINVAL, "nbd_opt_go: ");
  CHECK (nbd_aio_notify_write (h) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_notify_write: ");
  CHECK (nbd_aio_disconnect (h, 0) == 0);
  CHECK (nbd_aio_disconnect (h, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_disconnect: ");
  CHECK (nbd_shutdown (h, 0) == 0);
  /* Closed: EINVAL, not ENOTCONN. */
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  nbd_close (h);
}

/* After opt_abort no export size was ever given: EINVAL. */
static void
test_opt_abort (void)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_connect_command (h, nbdkit) == 0);
  CHECK (nbd_opt_abort (h) == 0);
  CHECK (nbd_get_size (h) == -1);
  CHECK_ERROR (EINVAL, "nbd_get_size: ");
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_created ();
  test_ready ();
  test_opt_abort ();
  return 0;
}
