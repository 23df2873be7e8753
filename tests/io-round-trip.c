/* io-round-trip.c: data written with nbd_pwrite and nbd_zero reads back. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (64 * 1024 * 1024)
#define MAX_IO (4 * 1024 * 1024)
#define NR_OPS 200

static unsigned long long seed = 0x12345678;

static unsigned
rnd (void)
{
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return seed >> 33;
}

/* A size from 1 byte to MAX_IO, skewed towards small and odd sizes. */
static size_t
rnd_size (void)
{
  switch (rnd () % 4) {
  case 0: return 1 + rnd () % 16;
  case 1: return 1 + rnd () % 4096;
  case 2: return 1 + rnd () % 65536;
  default: return 1 + rnd () % MAX_IO;
  }
}

static void
check_range (struct nbd_handle *h, const char *shadow, char *buf,
             size_t count, uint64_t offset)
{
  size_t i;

  CHECK (nbd_pread (h, buf, count, offset, 0) == 0);
  if (memcmp (buf, shadow + offset, count) != 0) {
    for (i = 0; i < count; ++i)
      if (buf[i] != shadow[offset + i])
        break;
    FAIL ("data mismatch at offset %llu (read of %zu bytes at %llu)",
          (unsigned long long) (offset + i), count,
          (unsigned long long) offset);
  }
}

int
main (void)
{
  struct nbd_handle *h;
  char *shadow, *buf;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=64M", NULL };
  size_t count, i;
  uint64_t offset;
  int op;

  requires_program ("nbdkit");

  shadow = calloc (1, SIZE);
  buf = malloc (MAX_IO);
  CHECK (shadow != NULL && buf != NULL);

  h = connect_command_or_fail (args);
  CHECK (nbd_get_size (h) == SIZE);

  for (op = 0; op < NR_OPS; ++op) {
    count = rnd_size ();
    offset = rnd () % (SIZE - count + 1);
    for (i = 0; i < count; ++i)
      buf[i] = rnd () & 0xff;
    memcpy (shadow + offset, buf, count);
    CHECK (nbd_pwrite (h, buf, count, offset, 0) == 0);

    /* Read back the range just written, and a random other range. */
    check_range (h, shadow, buf, count, offset);
    count = rnd_size ();
    offset = rnd () % (SIZE - count + 1);
    check_range (h, shadow, buf, count, offset);
  }

  /* Write zeroes over an unaligned range. */
  CHECK (nbd_can_zero (h) == 1);
  CHECK (nbd_zero (h, 1000003, 12345, 0) == 0);
  memset (shadow + 12345, 0, 1000003);
  check_range (h, shadow, buf, 2000000, 0);

  /* The memory plugin reads trimmed ranges back as zeroes. */
  CHECK (nbd_can_trim (h) == 1);
  CHECK (nbd_trim (h, 3 * 1024 * 1024, 8 * 1024 * 1024, 0) == 0);
  memset (shadow + 8 * 1024 * 1024, 0, 3 * 1024 * 1024);
  check_range (h, shadow, buf, MAX_IO, 7 * 1024 * 1024 + 512);

  CHECK (nbd_can_flush (h) == 1);
  CHECK (nbd_flush (h, 0) == 0);

  if (nbd_can_cache (h) == 1)
    CHECK (nbd_cache (h, 1024 * 1024, 4096, 0) == 0);

  /* Finally the whole disk, in MAX_IO pieces. */
  for (offset = 0; offset < SIZE; offset += MAX_IO)
    check_range (h, shadow, buf, MAX_IO, offset);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  free (shadow);
  free (buf);
  exit (EXIT_SUCCESS);
}
