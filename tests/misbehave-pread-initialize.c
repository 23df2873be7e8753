/* misbehave-pread-initialize.c: a failed read leaves the same bytes
 * whether its buffer was zeroed first or only what was not filled.
 */
/* With pread_initialize on, a read with a chunk callback is zeroed by
 * the call, before anything else, as libnbd 1.22 zeroes every read;
 * one without is zeroed only where no reply filled it, when it fails.
 * A caller must not be able to tell the two apart.  For each of
 * fake-server's spoiled replies, the same read is made both ways into
 * a buffer full of 0xaa, and the outcome and every byte must match.
 * Some outcomes are pinned outright too: a read refused before it is
 * sent, one failed by the server, one half-received when the server
 * hangs up, one still in flight when the handle closes; and with
 * pread_initialize off, unfilled bytes keep the caller's 0xaa.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include <libnbd.h>

#include "misbehave-common.h"

#define LEN 65536
#define OFFSET 4096

static int
no_chunk_check (void *user_data, const void *subbuf, size_t count,
                uint64_t offset, unsigned status, int *error)
{
  (void) user_data; (void) subbuf; (void) count; (void) offset;
  (void) status; (void) error;
  return 0;
}

struct result {
  int err;                      /* the completion's error, -1 if none */
  bool dead;                    /* the handle died */
};

/* Read LEN bytes at OFFSET from SCENARIO into BUF (filled with 0xaa
 * first), with a chunk callback (zeroed first) or without.
 */
static struct result
read_once (const char *argv0, const char *scenario, bool init,
           bool chunk_cb, unsigned char *buf)
{
  struct nbd_handle *h = connect_scenario (argv0, scenario, init);
  struct result o = { .err = -1 };
  nbd_completion_callback done = { .callback = completion_cb,
                                   .user_data = &o.err };
  nbd_chunk_callback chunk = { .callback = no_chunk_check };
  time_t start = time (NULL);
  int64_t cookie;

  memset (buf, 0xaa, LEN);
  if (chunk_cb)
    cookie = nbd_aio_pread_structured (h, buf, LEN, OFFSET, chunk, done, 0);
  else
    cookie = nbd_aio_pread (h, buf, LEN, OFFSET, done, 0);
  CHECK (cookie > 0);
  while (o.err == -1 && nbd_poll (h, 1000) != -1)
    if (time (NULL) - start > 10)
      FAIL ("%s: the read never completed", scenario);
  o.dead = nbd_aio_is_dead (h);
  nbd_close (h);
  if (o.err == -1)
    FAIL ("%s: the completion never ran", scenario);
  return o;
}

/* The read with and without a chunk callback: the same in every way. */
static void
same_both_ways (const char *argv0, const char *scenario, bool init)
{
  static unsigned char eager[LEN], late[LEN];
  struct result a = read_once (argv0, scenario, init, true, eager);
  struct result b = read_once (argv0, scenario, init, false, late);
  size_t i;

  if (a.err != b.err || a.dead != b.dead)
    FAIL ("%s: error %d/%d, dead %d/%d with and without a chunk callback",
          scenario, a.err, b.err, a.dead, b.dead);
  for (i = 0; i < LEN; ++i)
    if (eager[i] != late[i])
      FAIL ("%s (pread_initialize %d): byte %zu is 0x%02x zeroed first, "
            "0x%02x zeroed late", scenario, init, i, eager[i], late[i]);
}

static bool
all_bytes (const unsigned char *buf, size_t len, unsigned char c)
{
  size_t i;

  for (i = 0; i < len; ++i)
    if (buf[i] != c)
      return false;
  return true;
}

/* The bytes some scenarios must leave, pinned. */
static void
pinned (const char *argv0)
{
  static unsigned char buf[LEN];
  struct result o;

  /* Data for the first half, then DONE: the rest is zero. */
  o = read_once (argv0, "short", true, false, buf);
  CHECK (o.err == EPROTO && !o.dead);
  CHECK (is_pattern (buf, LEN / 2, OFFSET));
  CHECK (all_bytes (buf + LEN / 2, LEN / 2, 0));

  /* Without pread_initialize the caller's bytes stay where none came. */
  o = read_once (argv0, "short", false, false, buf);
  CHECK (o.err == EPROTO);
  CHECK (is_pattern (buf, LEN / 2, OFFSET));
  CHECK (all_bytes (buf + LEN / 2, LEN / 2, 0xaa));

  /* Half of a chunk, then the server hangs up: what came is kept. */
  o = read_once (argv0, "hangup", true, false, buf);
  CHECK (o.err == ENOTCONN && o.dead);
  CHECK (is_pattern (buf, LEN / 2, OFFSET));
  CHECK (all_bytes (buf + LEN / 2, LEN / 2, 0));

  /* An error chunk: nothing filled, all zero. */
  o = read_once (argv0, "error-chunk", true, false, buf);
  CHECK (o.err == EIO && !o.dead);
  CHECK (all_bytes (buf, LEN, 0));
}

/* Refused before it is sent, and closed while in flight: zeroed. */
static void
never_answered (const char *argv0)
{
  static unsigned char buf[LEN];
  struct nbd_handle *h = connect_scenario (argv0, "good:2", true);
  int err = -1;
  nbd_completion_callback done = { .callback = completion_cb,
                                   .user_data = &err };

  memset (buf, 0xaa, LEN);
  CHECK (nbd_aio_pread (h, buf, LEN, DISK_SIZE, done, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_pread: ");
  CHECK (all_bytes (buf, LEN, 0));

  memset (buf, 0xaa, LEN);
  CHECK (nbd_aio_pread (h, buf, LEN, 0, done, 8) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_pread: ");
  CHECK (all_bytes (buf, LEN, 0));

  /* good:2 holds its replies until two reads have come. */
  memset (buf, 0xaa, LEN);
  CHECK (nbd_aio_pread (h, buf, LEN, 0, done, 0) > 0);
  CHECK (nbd_poll (h, 100) >= 0);
  CHECK (err == -1);
  nbd_close (h);
  CHECK (err == ENOTCONN);
  CHECK (all_bytes (buf, LEN, 0));
}

int
main (int argc, char *argv[])
{
  static const char *const scenarios[] = {
    "good", "short", "overlap", "out-of-range", "unknown-cookie",
    "huge-chunk", "error-chunk", "simple-reply-to-read-with-sr",
    "bad-magic", "hangup", "ooo-1byte", "ooo-1byte-dup", "tiny-chunks",
  };
  size_t i;

  (void) argc;
  for (i = 0; i < sizeof scenarios / sizeof scenarios[0]; ++i) {
    same_both_ways (argv[0], scenarios[i], true);
    same_both_ways (argv[0], scenarios[i], false);
  }
  pinned (argv[0]);
  never_answered (argv[0]);
  exit (EXIT_SUCCESS);
}
