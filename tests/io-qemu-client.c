/* io-qemu-client.c: writes and reads through a qemu-nbd socket (argv[1]). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

/* What io-sync-vs-qemu.sh expects to find in the file afterwards:
 *   offset 0:           "NBDTEST"
 *   offset 4M+3:        1M bytes of 0xa5
 *   offset 8M:          64K of zeroes (written as 0xff first, then zeroed)
 */
#define BIG (1024 * 1024)

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  unsigned char *buf, *rbuf;
  size_t i;

  if (argc != 2) {
    fprintf (stderr, "usage: %s SOCKET\n", argv[0]);
    exit (EXIT_FAILURE);
  }
  buf = malloc (BIG);
  rbuf = malloc (BIG);
  CHECK (buf != NULL && rbuf != NULL);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, argv[1]) == 0);
  CHECK (nbd_get_size (h) == 10 * 1024 * 1024);
  CHECK (nbd_is_read_only (h) == 0);

  CHECK (nbd_pwrite (h, "NBDTEST", 7, 0, 0) == 0);
  memset (buf, 0xa5, BIG);
  CHECK (nbd_pwrite (h, buf, BIG, 4 * BIG + 3, 0) == 0);
  memset (buf, 0xff, 65536);
  CHECK (nbd_pwrite (h, buf, 65536, 8 * BIG, 0) == 0);
  CHECK (nbd_zero (h, 65536, 8 * BIG, 0) == 0);
  if (nbd_can_fua (h) == 1)
    CHECK (nbd_pwrite (h, "NBDTEST", 7, 0, LIBNBD_CMD_FLAG_FUA) == 0);
  CHECK (nbd_flush (h, 0) == 0);

  CHECK (nbd_pread (h, rbuf, 7, 0, 0) == 0);
  CHECK (memcmp (rbuf, "NBDTEST", 7) == 0);
  memset (buf, 0xa5, BIG);
  CHECK (nbd_pread (h, rbuf, BIG, 4 * BIG + 3, 0) == 0);
  CHECK (memcmp (rbuf, buf, BIG) == 0);
  CHECK (nbd_pread (h, rbuf, 65536 + 1, 8 * BIG - 1, 0) == 0);
  for (i = 0; i <= 65536; ++i)
    if (rbuf[i] != 0)
      FAIL ("byte %zu of the zeroed range is 0x%02x", i, rbuf[i]);
  /* Bytes around the written range are still zero. */
  CHECK (nbd_pread (h, rbuf, 2, 4 * BIG + 2, 0) == 0);
  CHECK (rbuf[0] == 0 && rbuf[1] == 0xa5);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  free (buf);
  free (rbuf);
  exit (EXIT_SUCCESS);
}
