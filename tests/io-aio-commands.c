/* io-aio-commands.c: the asynchronous flush, trim, zero, cache and
 * 64-bit block status, driven with nbd_poll2, change and report the
 * export as their synchronous twins do; the byte and chunk counters
 * move with the traffic.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)

struct extents {
  int calls;
  uint64_t total;               /* bytes described */
  uint32_t first_flags;
};

static int
extent64_cb (void *opaque, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  struct extents *e = opaque;
  size_t i;

  if (e->calls++ == 0 && nr_entries > 0)
    e->first_flags = entries[0].flags;
  for (i = 0; i < nr_entries; ++i)
    e->total += entries[i].length;
  return 0;
}

/* Wait for COOKIE with nbd_poll2, which must also report the other fd
 * without failing, and retire it.
 */
static void
wait_for (struct nbd_handle *h, int64_t cookie, int efd)
{
  int r;

  CHECK (cookie > 0);
  while ((r = nbd_aio_command_completed (h, cookie)) == 0)
    CHECK (nbd_poll2 (h, efd, -1) >= 0);
  CHECK (r == 1);
}

static void
check_bytes (struct nbd_handle *h, uint64_t offset, size_t len, char want)
{
  static char buf[SIZE];
  size_t i;

  CHECK (nbd_pread (h, buf, len, offset, 0) == 0);
  for (i = 0; i < len; ++i)
    if (buf[i] != want)
      FAIL ("byte at %llu is 0x%02x, want 0x%02x",
            (unsigned long long) (offset + i), buf[i] & 0xff, want & 0xff);
}

static void
test_commands (struct nbd_handle *h, int efd)
{
  static char ones[SIZE];
  nbd_completion_callback none = NBD_NULL_COMPLETION;

  memset (ones, 1, sizeof ones);
  CHECK (nbd_pwrite (h, ones, SIZE, 0, 0) == 0);
  wait_for (h, nbd_aio_flush (h, none, 0), efd);
  wait_for (h, nbd_aio_trim (h, 65536, 0, none, 0), efd);
  check_bytes (h, 0, 65536, 0);           /* memory: trimmed reads zero */
  wait_for (h, nbd_aio_zero (h, 4096, 131072, none, 0), efd);
  check_bytes (h, 131072, 4096, 0);
  check_bytes (h, 135168, 4096, 1);
  wait_for (h, nbd_aio_cache (h, 65536, 65536, none, 0), efd);
  check_bytes (h, 65536, 65536, 1);
}

static void
test_block_status_64 (struct nbd_handle *h, int efd)
{
  struct extents sync = { 0 }, async = { 0 };
  nbd_extent64_callback cb = { .callback = extent64_cb, .user_data = &sync };

  CHECK (nbd_block_status_64 (h, SIZE, 0, cb, 0) == 0);
  CHECK (sync.calls == 1);
  CHECK (sync.total > 0 && sync.total <= SIZE);
  /* The trimmed first 64K of nbdkit memory is a hole that reads zero. */
  CHECK (sync.first_flags == (LIBNBD_STATE_HOLE | LIBNBD_STATE_ZERO));

  cb.user_data = &async;
  wait_for (h, nbd_aio_block_status_64 (h, SIZE, 0, cb,
                                        NBD_NULL_COMPLETION, 0), efd);
  CHECK (async.calls == 1);
  CHECK (async.total == sync.total);
  CHECK (async.first_flags == sync.first_flags);
}

/* Bytes and chunks counted both ways: a 4K read is one request header
 * out (28 bytes) and, from nbdkit with structured replies, one data
 * chunk in (20 byte header, 8 byte offset, 4096 bytes).
 */
static void
test_stats (struct nbd_handle *h)
{
  char buf[4096];
  uint64_t sent = nbd_stats_bytes_sent (h);
  uint64_t received = nbd_stats_bytes_received (h);
  uint64_t csent = nbd_stats_chunks_sent (h);
  uint64_t creceived = nbd_stats_chunks_received (h);

  CHECK (sent > 0 && received > 0 && csent > 0 && creceived > 0);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_stats_bytes_sent (h) == sent + 28);
  CHECK (nbd_stats_chunks_sent (h) == csent + 1);
  CHECK (nbd_stats_bytes_received (h) == received + 20 + 8 + 4096);
  CHECK (nbd_stats_chunks_received (h) == creceived + 1);
}

int
main (void)
{
  struct nbd_handle *h;
  char *server[] = { "nbdkit", "-s", "--exit-with-parent", "memory", "1M",
                     NULL };
  char *rotating[] = { "nbdkit", "-s", "--exit-with-parent", "eval",
                       "get_size=echo 1M", "pread=exit 1",
                       "is_rotational=exit 0", NULL };
  int efd = eventfd (0, EFD_CLOEXEC);

  requires_program ("nbdkit");
  CHECK (efd >= 0);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_is_rotational (h) == 0);
  CHECK (nbd_can_multi_conn (h) == 1);    /* memory allows it */
  CHECK (nbd_can_cache (h) == 1);

  test_commands (h, efd);
  test_block_status_64 (h, efd);
  test_stats (h);

  /* poll2 returns when the other fd is readable, doing nothing else. */
  CHECK (eventfd_write (efd, 1) == 0);
  CHECK (nbd_poll2 (h, efd, -1) == 1);
  CHECK (nbd_aio_in_flight (h) == 0);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  close (efd);

  h = connect_command_or_fail (rotating);
  CHECK (nbd_is_rotational (h) == 1);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
