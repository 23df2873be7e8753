/* io-pattern.c: reads of the nbdkit pattern plugin at odd offsets. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (8 * 1024 * 1024)

/* The pattern plugin stores each 8-byte aligned offset as a 64 bit
 * big-endian number, so byte i of the disk is byte (i & 7) of i & ~7.
 */
static unsigned char
pattern_byte (uint64_t i)
{
  uint64_t base = i & ~UINT64_C (7);

  return (base >> (8 * (7 - (i & 7)))) & 0xff;
}

static void
check_read (struct nbd_handle *h, unsigned char *buf, size_t count,
            uint64_t offset)
{
  size_t i;

  memset (buf, 0xaa, count);
  CHECK (nbd_pread (h, buf, count, offset, 0) == 0);
  for (i = 0; i < count; ++i)
    if (buf[i] != pattern_byte (offset + i))
      FAIL ("read of %zu at %llu: byte %llu is 0x%02x, expected 0x%02x",
            count, (unsigned long long) offset,
            (unsigned long long) (offset + i), buf[i],
            pattern_byte (offset + i));
}

int
main (void)
{
  struct nbd_handle *h;
  unsigned char *buf;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "pattern",
                   "size=8M", NULL };
  static const uint64_t offsets[] = { 0, 1, 3, 7, 8, 9, 4095, 4097,
                                      65535, 1000001, SIZE - 8 * 65536 - 5 };
  static const size_t counts[] = { 1, 2, 7, 8, 9, 15, 511, 4096, 65537,
                                   8 * 65536 };
  size_t i, j;
  uint64_t v;

  requires_program ("nbdkit");

  buf = malloc (8 * 65536);
  CHECK (buf != NULL);

  h = connect_command_or_fail (args);
  CHECK (nbd_get_size (h) == SIZE);
  CHECK (nbd_is_read_only (h) == 1);

  for (i = 0; i < sizeof offsets / sizeof offsets[0]; ++i)
    for (j = 0; j < sizeof counts / sizeof counts[0]; ++j)
      check_read (h, buf, counts[j], offsets[i]);

  /* The last 8 bytes of the disk hold its last aligned offset. */
  CHECK (nbd_pread (h, buf, 8, SIZE - 8, 0) == 0);
  for (v = 0, i = 0; i < 8; ++i)
    v = (v << 8) | buf[i];
  CHECK (v == SIZE - 8);

  /* A read ending exactly at the end of the disk. */
  check_read (h, buf, 4093, SIZE - 4093);

  nbd_close (h);
  free (buf);
  exit (EXIT_SUCCESS);
}
