/* misbehave-good.c: fake-server behaving well works (control). */
/* The server behaves as the NBD spec asks, with structured replies and
 * without.  Expected: every read, write, zero, flush and block status
 * succeeds with the right data, so a failure of another misbehave test
 * is down to its scenario, not to fake-server or the helpers.
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "misbehave-common.h"

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  int *calls = user_data;

  CHECK (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nr_entries == 2);
  CHECK (entries[0] == 65536 && entries[1] == 0);
  (*calls)++;
  return 0;
}

/* Reads at odd places return the pattern; writes read back. */
static void
exercise (struct nbd_handle *h)
{
  static unsigned char buf[65536];
  static const uint64_t offsets[] = { 0, 1, 4095, 65536, 500001,
                                      DISK_SIZE - 65536 };
  static const size_t counts[] = { 1, 2, 9, 4096, 65535, 65536 };
  size_t i, j;

  for (i = 0; i < sizeof offsets / sizeof offsets[0]; ++i)
    for (j = 0; j < sizeof counts / sizeof counts[0]; ++j) {
      if (offsets[i] + counts[j] > DISK_SIZE)
        continue;
      memset (buf, 0xaa, sizeof buf);
      CHECK (nbd_pread (h, buf, counts[j], offsets[i], 0) == 0);
      if (!is_pattern (buf, counts[j], offsets[i]))
        FAIL ("read of %zu at %llu does not match the pattern",
              counts[j], (unsigned long long) offsets[i]);
    }

  memset (buf, 0x42, 1000);
  CHECK (nbd_pwrite (h, buf, 1000, 12345, 0) == 0);
  memset (buf, 0, 1000);
  CHECK (nbd_pread (h, buf, 1000, 12345, 0) == 0);
  for (i = 0; i < 1000; ++i)
    CHECK (buf[i] == 0x42);
  CHECK (nbd_zero (h, 100, 12345, 0) == 0);
  CHECK (nbd_pread (h, buf, 200, 12345, 0) == 0);
  CHECK (buf[0] == 0 && buf[99] == 0 && buf[100] == 0x42);
  CHECK (nbd_flush (h, 0) == 0);
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static char path[4096];
  char *args[] = { path, "good", NULL };
  int calls = 0;

  /* Structured replies and base:allocation. */
  h = connect_scenario (argv[0], "good", false);
  CHECK (nbd_get_size (h) == DISK_SIZE);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  CHECK (nbd_is_read_only (h) == 0);
  exercise (h);
  CHECK (nbd_block_status (h, 65536, 0,
                           (nbd_extent_callback) { .callback = extent_cb,
                                                   .user_data = &calls },
                           0) == 0);
  CHECK (calls == 1);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  /* Simple replies only. */
  fake_server_path (argv[0], path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_request_structured_replies (h, false) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  CHECK (nbd_get_structured_replies_negotiated (h) == 0);
  exercise (h);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
