/* io-pread-initialize.c: nbd_set_pread_initialize and failing reads. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)
#define BUFLEN 4096

static int
all_bytes (const unsigned char *buf, size_t len, unsigned char c)
{
  size_t i;

  for (i = 0; i < len; ++i)
    if (buf[i] != c)
      return 0;
  return 1;
}

static struct nbd_handle *
connect_server (bool errors)
{
  struct nbd_handle *h;
  char *plain[] = { "nbdkit", "-s", "--exit-with-parent", "pattern",
                    "size=1M", NULL };
  char *failing[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=error",
                      "pattern", "size=1M", "error-pread=EIO",
                      "error-pread-rate=100%", NULL };

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, errors ? failing : plain) == 0);
  return h;
}

int
main (void)
{
  struct nbd_handle *h;
  static unsigned char buf[BUFLEN];

  requires_program ("nbdkit");

  h = connect_server (false);
  CHECK (nbd_get_pread_initialize (h) == 1);

  /* Initialised: even a read refused before it is sent zeroes the buffer. */
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  if (!all_bytes (buf, sizeof buf, 0))
    FAIL ("failed read did not zero the buffer with pread_initialize");

  /* Not initialised: the failed read leaves the buffer alone. */
  CHECK (nbd_set_pread_initialize (h, false) == 0);
  CHECK (nbd_get_pread_initialize (h) == 0);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, SIZE, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  if (!all_bytes (buf, sizeof buf, 0xaa))
    FAIL ("failed read changed the buffer without pread_initialize");

  /* A good read fills the buffer either way: offset 8 holds 8. */
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, 16, 0, 0) == 0);
  CHECK (all_bytes (buf, 15, 0) && buf[15] == 8);
  CHECK (buf[16] == 0xaa);
  nbd_close (h);

  /* The server fails every read with EIO. */
  h = connect_server (true);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (EIO, "nbd_pread: ");
  if (!all_bytes (buf, sizeof buf, 0))
    FAIL ("read failed by the server did not leave zeroes");

  CHECK (nbd_set_pread_initialize (h, false) == 0);
  memset (buf, 0xaa, sizeof buf);
  CHECK (nbd_pread (h, buf, sizeof buf, 4096, 0) == -1);
  CHECK_ERROR (EIO, "nbd_pread: ");
  /* The handle survives a server error. */
  CHECK (nbd_aio_is_ready (h) == 1);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
