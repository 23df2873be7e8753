/* io-bounds.c: out of range and zero length requests fail cleanly. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)

int
main (void)
{
  struct nbd_handle *h;
  char buf[512];
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M", NULL };
  uint32_t strict;

  requires_program ("nbdkit");
  memset (buf, 0x55, sizeof buf);

  h = connect_command_or_fail (args);
  CHECK (nbd_get_size (h) == SIZE);

  /* Client side checks, in the default strict mode. */
  strict = nbd_get_strict_mode (h);
  CHECK (strict & LIBNBD_STRICT_BOUNDS);
  CHECK (strict & LIBNBD_STRICT_ZERO_SIZE);

  CHECK (nbd_pread (h, buf, sizeof buf, SIZE, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE - 1, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  CHECK (nbd_pread (h, buf, 1, UINT64_MAX, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  CHECK (nbd_aio_pread (h, buf, sizeof buf, SIZE, NBD_NULL_COMPLETION,
                        0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_pread: ");

  /* As in libnbd, a write past the end is ENOSPC. */
  CHECK (nbd_pwrite (h, buf, sizeof buf, SIZE - 511, 0) == -1);
  CHECK_ERROR (ENOSPC, "nbd_pwrite: ");
  CHECK (nbd_zero (h, 2, SIZE - 1, 0) == -1);
  CHECK_ERROR (ENOSPC, "nbd_zero: ");
  CHECK (nbd_trim (h, SIZE + 1, 0, 0) == -1);
  CHECK_ERROR (ENOSPC, "nbd_trim: ");

  /* Zero length requests. */
  CHECK (nbd_pread (h, buf, 0, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  CHECK (nbd_pwrite (h, buf, 0, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pwrite: ");

  /* None of that reached the server: the handle still works. */
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE - sizeof buf, 0) == 0);
  memset (buf, 0x55, sizeof buf);
  CHECK (nbd_pwrite (h, buf, sizeof buf, SIZE - sizeof buf, 0) == 0);

  /* Without the client checks the server refuses the requests. */
  CHECK (nbd_set_strict_mode (h, 0) == 0);
  CHECK (nbd_get_strict_mode (h) == 0);
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE, 0) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (strncmp (nbd_get_error (), "nbd_pread: ", 11) == 0);
  CHECK (nbd_pwrite (h, buf, sizeof buf, SIZE - 1, 0) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (strncmp (nbd_get_error (), "nbd_pwrite: ", 12) == 0);

  /* A server error leaves the connection usable. */
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE - sizeof buf, 0) == 0);
  CHECK (buf[0] == 0x55 && buf[sizeof buf - 1] == 0x55);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
