/* diff-reads.c: what a read leaves in the caller's buffer, and when,
 * against fake-server replies that go wrong (diff.tap runs it on our
 * library and on libnbd 1.22.2 and compares the output).
 *
 * Usage: diff-reads SCENARIO (see the table at the end).
 */
#include <config.h>

#include "diff-common.h"

#define LEN 65536

static unsigned char buf[LEN];

/* fake-server with "script read TOKENS", or a named scenario. */
static struct nbd_handle *
connect_fake (bool pread_init, const char *scenario, const char *tokens)
{
  char *args[] = { (char *) test_program ("fake-server"),
                   (char *) scenario, (char *) "read", (char *) tokens,
                   NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_pread_initialize (h, pread_init) == 0);
  if (tokens == NULL)
    args[2] = NULL;
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server: %s", nbd_get_error ());
  return h;
}

/* One aio read's completion: what it saw, in the order they ran. */
struct read_cb {
  const char *name;
  uint64_t offset;
  bool done;
};

static int
read_done (void *user_data, int *error)
{
  struct read_cb *r = user_data;
  char what[64];

  snprintf (what, sizeof what, "completion %s: error %s, buffer", r->name,
            errname (*error));
  say_buffer (what, buf, LEN, r->offset);
  r->done = true;
  return 1;
}

static nbd_completion_callback
completion (struct read_cb *r)
{
  return (nbd_completion_callback) { .callback = read_done, .user_data = r };
}

static bool
both_done (void *arg)
{
  struct read_cb *r = arg;

  return r[0].done && r[1].done;
}

/* 27.1: an aio read the server never answers.  1.22 zeroes the buffer
 * when the call is made, and never again: the program may reuse it
 * (here: fill it with 0xbb) before nbd_close, which completes the read
 * with ENOTCONN and must not write it.
 */
static void
aio_zero_at_call (void)
{
  struct nbd_handle *h = connect_fake (true, "script", "hold");
  struct read_cb r = { "read", 0, false };

  memset (buf, 0xaa, LEN);
  say_result ("nbd_aio_pread", nbd_aio_pread (h, buf, LEN, 0,
                                              completion (&r), 0) > 0);
  say_buffer ("after the call", buf, LEN, 0);
  memset (buf, 0xbb, LEN);
  nbd_close (h);
  say_buffer ("after nbd_close", buf, LEN, 0);
}

/* 27.1: two aio reads into the same memory; the server answers the
 * second, then hangs up with the first still in flight.  The good data
 * of the second must survive the first one's failure.
 */
static void
aio_same_buffer (void)
{
  struct nbd_handle *h = connect_fake (true, "script", "serve:1 close");
  struct read_cb r[2] = { { "first", 0, false }, { "second", LEN, false } };

  memset (buf, 0xaa, LEN);
  CHECK (nbd_aio_pread (h, buf, LEN, 0, completion (&r[0]), 0) > 0);
  CHECK (nbd_aio_pread (h, buf, LEN, LEN, completion (&r[1]), 0) > 0);
  diff_poll_until (h, both_done, r);
  say_buffer ("when both are done (second's offset)", buf, LEN, LEN);
  nbd_close (h);
  say_buffer ("after nbd_close (second's offset)", buf, LEN, LEN);
}

/* A chunk as the chunk callback saw it. */
static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  char what[128];

  snprintf (what, sizeof what,
            "chunk: offset %" PRIu64 " count %zu status %u error %s, "
            "bytes", offset, count, status, errname (*error));
  if (status == LIBNBD_READ_DATA)
    say_buffer (what, subbuf, count, offset);
  else
    say ("%s: none", what);
  return 0;
}

/* A synchronous read of the first 64 KiB answered by TOKENS (or the
 * named SCENARIO), with pread_initialize off (the buffer shows exactly
 * what the library wrote) then on.
 */
static void
sync_read (const char *scenario, const char *tokens)
{
  nbd_chunk_callback chunk = { .callback = chunk_cb };
  struct nbd_handle *h;
  int init, r;

  for (init = 0; init <= 1; ++init) {
    say ("pread_initialize %s", init ? "on" : "off");
    h = connect_fake (init, scenario, tokens);
    memset (buf, 0xaa, LEN);
    r = nbd_pread_structured (h, buf, LEN, 0, chunk, 0);
    say_result ("nbd_pread_structured", r);
    say_buffer ("buffer", buf, LEN, 0);
    say_state ("then", h);
    nbd_close (h);
  }
}

/* The chunk headers of a structured reply to the 64 KiB read at 0:
 * magic, flags, type, cookie, length.
 */
#define DATA(flags, len) \
  "u32:cmagic u16:" #flags " u16:1 u64:cookie u32:" #len " "
#define HOLE(flags) "u32:cmagic u16:" #flags " u16:2 u64:cookie u32:12 "

static void
hole_over_data (void)
{
  /* The whole read as data, then a hole over its first half. */
  sync_read ("script", DATA (0, 65544) "u64:off data:off:count "
             HOLE (1) "u64:off u32:32768");
}

static void
data_past_request (void)
{
  /* The whole read as data, then 4 KiB of zeroes at its start: the
   * total runs past the request.
   */
  sync_read ("script", DATA (0, 65544) "u64:off data:off:count "
             DATA (1, 4104) "u64:off zero:4096");
}

static void
empty_offset_data (void)
{
  /* A data chunk carrying no bytes, then the right answer. */
  sync_read ("script", DATA (0, 8) "u64:off good");
}

static void
overlap (void)
{
  sync_read ("overlap", NULL);
}

static void
hangup_mid_reply (void)
{
  sync_read ("hangup", NULL);
}

static const struct diff_scenario scenarios[] = {
  { "aio-zero-at-call", aio_zero_at_call },
  { "aio-same-buffer", aio_same_buffer },
  { "hole-over-data", hole_over_data },
  { "data-past-request", data_past_request },
  { "empty-offset-data", empty_offset_data },
  { "overlap", overlap },
  { "hangup-mid-reply", hangup_mid_reply },
};

int
main (int argc, char *argv[])
{
  return diff_main (argc, argv, scenarios,
                    sizeof scenarios / sizeof scenarios[0]);
}
