/* misbehave-matrix.c: each field of each reply spoiled in turn (TAP). */
/* For every reply type (simple, each structured chunk type, each
 * option reply), fake-server answers one command or option with the
 * bytes a scenario spells out: wrong magic, unknown type, lengths too
 * short, too long and at the maximum, offsets before, inside and past
 * the request, duplicate and missing DONE, unknown cookies, truncation
 * in the middle of a field.  Each scenario pins one outcome: the call's
 * errno (0: success), whether the handle is still usable afterwards,
 * and that no byte outside the request changed in the caller's buffer.
 * Output is TAP, one line per scenario.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "misbehave-common.h"
#include "noop-callbacks.h"

/* The request every read and block status scenario answers. */
#define OFF 8192
#define COUNT 4096
#define GUARD 64                /* guard bytes either side of the buffer */

/* A structured chunk header: flags, type, length. */
#define HDR(flags, type, len) \
  "u32:cmagic u16:" #flags " u16:" #type " u64:cookie u32:" #len " "
/* An option reply header: type, length. */
#define OPT(type, len) "u64:omagic u32:opt u32:" #type " u32:" #len " "

enum after { ALIVE, DEAD, CLOSED };
/* The call fails with no errno, as libnbd says a clean end of file or a
 * malformed handshake reply.
 */
#define NOERRNO (-2)
enum content { ANY, PATTERN, ZEROES };

struct scenario {
  const char *name;
  const char *target;           /* read, bs, write, list, info, go, meta */
  const char *tokens;
  int err;                      /* the call's errno; 0: it succeeds */
  enum after after;
  enum content content;         /* what a successful read leaves */
  int error_callbacks;          /* LIBNBD_READ_ERROR calls expected */
};

static const struct scenario scenarios[] = {
  /* Simple replies. */
  { "simple: data to a read, with structured replies", "read",
    "u32:smagic u32:0 u64:cookie data:off:count", EPROTO, ALIVE, ANY, 0 },
  { "simple: wrong magic", "read",
    "u32:0x67446699 u32:0 u64:cookie data:off:count hold",
    EPROTO, DEAD, ANY, 0 },
  { "simple: error EIO", "read", "u32:smagic u32:5 u64:cookie",
    EIO, ALIVE, ANY, 0 },
  { "simple: unknown error number", "read", "u32:smagic u32:1234 u64:cookie",
    EINVAL, ALIVE, ANY, 0 },
  { "simple: unknown cookie, skipped", "read",
    "u32:smagic u32:0 u64:cookie+99 good", 0, ALIVE, PATTERN, 0 },
  { "simple: truncated in the magic", "read", "u16:0x6744 close",
    NOERRNO, DEAD, ANY, 0 },
  { "simple: truncated in the cookie", "read",
    "u32:smagic u32:0 u32:0 close", NOERRNO, DEAD, ANY, 0 },
  { "simple: truncated in the data", "read",
    "u32:smagic u32:0 u64:cookie data:off:100 close",
    NOERRNO, DEAD, ANY, 0 },
  { "simple: write, error ENOSPC", "write", "u32:smagic u32:28 u64:cookie",
    ENOSPC, ALIVE, ANY, 0 },
  { "simple: write, wrong magic", "write", "u32:0 u32:0 u64:cookie hold",
    EPROTO, DEAD, ANY, 0 },

  /* Chunk headers. */
  { "chunk: wrong magic", "read",
    "u32:0x668e33ee u16:1 u16:1 u64:cookie u32:4104 hold",
    EPROTO, DEAD, ANY, 0 },
  { "chunk: unknown type, skipped", "read", HDR (1, 100, 4) "u32:0",
    EPROTO, ALIVE, ANY, 0 },
  { "chunk: unknown type, too long to skip", "read",
    HDR (1, 100, 65601) "hold", EPROTO, DEAD, ANY, 0 },
  { "chunk: length at the protocol maximum", "read",
    HDR (1, 1, 0xffffffff) "u64:off data:off:count hold",
    EPROTO, DEAD, ANY, 0 },
  { "chunk: unknown cookie, skipped", "read",
    "u32:cmagic u16:1 u16:0 u64:cookie+7 u32:0 "
    "u32:cmagic u16:1 u16:1 u64:cookie+7 u32:12 u64:off u32:0 good",
    0, ALIVE, PATTERN, 0 },
  { "chunk: truncated in the header", "read",
    "u32:cmagic u16:1 u16:1 u32:0 close", NOERRNO, DEAD, ANY, 0 },
  { "chunk: truncated in the length", "read",
    "u32:cmagic u16:1 u16:1 u64:cookie u16:0 close", NOERRNO, DEAD, ANY, 0 },

  /* NBD_REPLY_TYPE_NONE. */
  { "none: alone, a read gets no data", "read", HDR (1, 0, 0),
    EPROTO, ALIVE, ANY, 0 },
  { "none: without DONE", "read", HDR (0, 0, 0) "good", EPROTO, ALIVE, ANY, 0 },
  { "none: length too long", "read", HDR (1, 0, 4) "u32:0",
    EPROTO, DEAD, ANY, 0 },
  { "none: length too long to skip", "read", HDR (1, 0, 65601) "hold",
    EPROTO, DEAD, ANY, 0 },
  { "none: write, structured reply", "write", HDR (1, 0, 0), 0, ALIVE, ANY, 0 },

  /* NBD_REPLY_TYPE_OFFSET_DATA. */
  { "data: good, at the maximum length", "read",
    HDR (1, 1, 4104) "u64:off data:off:count", 0, ALIVE, PATTERN, 0 },
  { "data: good, two chunks out of order", "read",
    HDR (0, 1, 2056) "u64:off+2048 data:off+2048:2048 "
    HDR (1, 1, 2056) "u64:off data:off:2048", 0, ALIVE, PATTERN, 0 },
  { "data: length too short for the offset", "read",
    HDR (1, 1, 4) "u32:0", EPROTO, ALIVE, ANY, 0 },
  { "data: no data", "read", HDR (1, 1, 8) "u64:off", EPROTO, ALIVE, ANY, 0 },
  { "data: length one past the request", "read",
    HDR (1, 1, 4105) "u64:off data:off:count u8:0 hold", EPROTO, DEAD, ANY, 0 },
  { "data: offset before the request", "read",
    HDR (1, 1, 4104) "u64:off-1 data:off-1:count", EPROTO, ALIVE, ANY, 0 },
  { "data: offset inside, running past the end", "read",
    HDR (1, 1, 4104) "u64:off+1 data:off+1:count", EPROTO, ALIVE, ANY, 0 },
  { "data: offset past the request", "read",
    HDR (1, 1, 9) "u64:end u8:0", EPROTO, ALIVE, ANY, 0 },
  { "data: offset far past, overflowing", "read",
    HDR (1, 1, 9) "u64:0xffffffffffffffff u8:0", EPROTO, ALIVE, ANY, 0 },
  { "data: half, then DONE", "read",
    HDR (1, 1, 2056) "u64:off data:off:2048", EPROTO, ALIVE, ANY, 0 },
  { "data: same half twice", "read",
    HDR (0, 1, 2056) "u64:off data:off:2048 "
    HDR (1, 1, 2056) "u64:off data:off:2048", EPROTO, ALIVE, ANY, 0 },
  { "data: overlapping chunks adding up to the request", "read",
    HDR (0, 1, 2056) "u64:off data:off:2048 "
    HDR (1, 1, 2056) "u64:off+1024 data:off+1024:2048", EPROTO, ALIVE, ANY, 0 },
  { "data: duplicate DONE", "read", "good good", 0, ALIVE, PATTERN, 0 },
  { "data: missing DONE, then the server leaves", "read",
    HDR (0, 1, 4104) "u64:off data:off:count close", ENOTCONN, CLOSED, ANY, 0 },
  { "data: DONE on a later NONE", "read",
    HDR (0, 1, 4104) "u64:off data:off:count " HDR (1, 0, 0),
    0, ALIVE, PATTERN, 0 },
  { "data: truncated in the offset", "read",
    HDR (1, 1, 4104) "u32:0 close", NOERRNO, DEAD, ANY, 0 },
  { "data: to a write", "write", HDR (1, 1, 9) "u64:off u8:0",
    EPROTO, ALIVE, ANY, 0 },

  /* NBD_REPLY_TYPE_OFFSET_HOLE. */
  { "hole: good", "read", HDR (1, 2, 12) "u64:off u32:count",
    0, ALIVE, ZEROES, 0 },
  { "hole: length too short", "read", HDR (1, 2, 11) "u64:off u16:0 u8:0",
    EPROTO, ALIVE, ANY, 0 },
  { "hole: length too long", "read", HDR (1, 2, 13) "u64:off u32:count u8:0",
    EPROTO, DEAD, ANY, 0 },
  { "hole: length too long to skip", "read", HDR (1, 2, 65601) "hold",
    EPROTO, DEAD, ANY, 0 },
  { "hole: empty", "read", HDR (1, 2, 12) "u64:off u32:0",
    EPROTO, ALIVE, ANY, 0 },
  { "hole: offset before the request", "read",
    HDR (1, 2, 12) "u64:off-1 u32:count", EPROTO, ALIVE, ANY, 0 },
  { "hole: running past the request", "read",
    HDR (1, 2, 12) "u64:off+1 u32:count", EPROTO, ALIVE, ANY, 0 },
  { "hole: offset past the request", "read",
    HDR (1, 2, 12) "u64:end u32:1", EPROTO, ALIVE, ANY, 0 },
  { "hole: and data overlapping it", "read",
    HDR (0, 2, 12) "u64:off u32:2048 "
    HDR (1, 1, 2056) "u64:off+1024 data:off+1024:2048", EPROTO, ALIVE, ANY, 0 },
  { "hole: and data, covering the request", "read",
    HDR (0, 2, 12) "u64:off u32:2048 "
    HDR (1, 1, 2056) "u64:off+2048 data:off+2048:2048", 0, ALIVE, ANY, 0 },
  { "hole: truncated in its length", "read",
    HDR (1, 2, 12) "u64:off u16:0 close", NOERRNO, DEAD, ANY, 0 },

  /* NBD_REPLY_TYPE_ERROR and ERROR_OFFSET. */
  { "error: EIO with a message", "read",
    HDR (1, 0x8001, 9) "u32:5 u16:3 str:abc", EIO, ALIVE, ANY, 0 },
  { "error: ENOSPC on a write", "write",
    HDR (1, 0x8001, 6) "u32:28 u16:0", ENOSPC, ALIVE, ANY, 0 },
  { "error: message longer than the chunk", "read",
    HDR (1, 0x8001, 6) "u32:5 u16:10", EIO, ALIVE, ANY, 0 },
  { "error: length too short for the errno", "read",
    HDR (1, 0x8001, 4) "u32:5", EPROTO, ALIVE, ANY, 0 },
  { "error: length at the maximum", "read",
    HDR (1, 0x8001, 65549) "u32:5 u16:65535 zero:65535 u64:0",
    EIO, ALIVE, ANY, 0 },
  { "error: length too long", "read",
    HDR (1, 0x8001, 65550) "u32:5 u16:0 hold", EPROTO, DEAD, ANY, 0 },
  { "error: errno 0", "read", HDR (1, 0x8001, 6) "u32:0 u16:0",
    EPROTO, ALIVE, ANY, 0 },
  { "error: unknown error type", "read",
    HDR (1, 0x8005, 6) "u32:5 u16:0", EIO, ALIVE, ANY, 0 },
  { "error: without DONE, then data", "read",
    HDR (0, 0x8001, 6) "u32:5 u16:0 good", EIO, ALIVE, ANY, 0 },
  { "error: truncated in the message", "read",
    HDR (1, 0x8001, 9) "u32:5 u16:3 u8:0x61 close", NOERRNO, DEAD, ANY, 0 },
  { "error offset: inside the request", "read",
    HDR (1, 0x8002, 14) "u32:5 u16:0 u64:off+100", EIO, ALIVE, ANY, 1 },
  { "error offset: with a message", "read",
    HDR (1, 0x8002, 16) "u32:5 u16:2 str:ab u64:off", EIO, ALIVE, ANY, 1 },
  { "error offset: before the request", "read",
    HDR (1, 0x8002, 14) "u32:5 u16:0 u64:off-1", EIO, ALIVE, ANY, 0 },
  { "error offset: past the request", "read",
    HDR (1, 0x8002, 14) "u32:5 u16:0 u64:end", EIO, ALIVE, ANY, 0 },
  { "error offset: offset field too short", "read",
    HDR (1, 0x8002, 10) "u32:5 u16:0 u32:0", EIO, ALIVE, ANY, 0 },

  /* NBD_REPLY_TYPE_BLOCK_STATUS. */
  { "block status: good", "bs", "good", 0, ALIVE, ANY, 0 },
  { "block status: length too short", "bs",
    HDR (1, 5, 8) "u32:1 u32:4096", EPROTO, ALIVE, ANY, 0 },
  { "block status: length not whole extents", "bs",
    HDR (1, 5, 13) "u32:1 u32:4096 u32:0 u8:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: length at the maximum", "bs",
    HDR (1, 5, 8388612) "u32:1 zero:8388608", EPROTO, ALIVE, ANY, 0 },
  { "block status: length too long", "bs",
    HDR (1, 5, 8388613) "u32:1 hold", EPROTO, DEAD, ANY, 0 },
  { "block status: unknown context id", "bs",
    HDR (1, 5, 12) "u32:99 u32:4096 u32:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: extent past the export", "bs",
    HDR (1, 5, 12) "u32:1 u32:0x7fffffff u32:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: empty extent", "bs",
    HDR (1, 5, 12) "u32:1 u32:0 u32:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: to a read", "read",
    HDR (1, 5, 12) "u32:1 u32:4096 u32:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: data chunk instead", "bs",
    HDR (1, 1, 9) "u64:off u8:0", EPROTO, ALIVE, ANY, 0 },
  { "block status: no extents at all", "bs", HDR (1, 0, 0),
    EPROTO, ALIVE, ANY, 0 },
  { "block status: truncated in an extent", "bs",
    HDR (1, 5, 12) "u32:1 u32:4096 u16:0 close", NOERRNO, DEAD, ANY, 0 },

  /* Option replies (opt mode). */
  { "option: list, good", "list", "good", 0, ALIVE, ANY, 0 },
  { "option: list, wrong magic", "list",
    "u64:0x3e889045565a8 u32:opt u32:1 u32:0 hold", NOERRNO, DEAD, ANY, 0 },
  { "option: list, reply to another option", "list",
    "u64:omagic u32:opt+1 u32:1 u32:0 hold", NOERRNO, DEAD, ANY, 0 },
  { "option: list, server length too short", "list", OPT (2, 3) "u16:0 u8:0",
    NOERRNO, DEAD, ANY, 0 },
  { "option: list, name longer than the reply", "list",
    OPT (2, 4) "u32:5", NOERRNO, DEAD, ANY, 0 },
  { "option: list, length too long", "list", OPT (2, 8197) "hold",
    NOERRNO, DEAD, ANY, 0 },
  { "option: list, length at the maximum", "list",
    OPT (2, 8196) "u32:4096 zero:4096 zero:4096 u64:omagic u32:opt u32:1 "
    "u32:0", 0, ALIVE, ANY, 0 },
  { "option: list, ACK with a payload", "list", OPT (1, 4) "u32:0 hold",
    NOERRNO, DEAD, ANY, 0 },
  { "option: list, unknown reply type", "list", OPT (99, 0) "hold",
    NOERRNO, DEAD, ANY, 0 },
  { "option: list, error reply", "list", OPT (0x80000001, 0),
    ENOTSUP, ALIVE, ANY, 0 },
  { "option: list, error with a message", "list",
    OPT (0x80000002, 2) "str:no", ENOTSUP, ALIVE, ANY, 0 },
  { "option: list, error message too long", "list",
    OPT (0x80000001, 4097) "hold", NOERRNO, DEAD, ANY, 0 },
  { "option: list, truncated in the header", "list",
    "u64:omagic u32:opt u16:0 close", NOERRNO, DEAD, ANY, 0 },
  { "option: info, export info too short", "info",
    OPT (3, 11) "u16:0 u64:0 u8:0 hold", NOERRNO, DEAD, ANY, 0 },
  { "option: info, export info too long", "info",
    OPT (3, 13) "u16:0 u64:1048576 u16:1 u8:0 hold", NOERRNO, DEAD, ANY, 0 },
  { "option: info, info length too short", "info", OPT (3, 1) "u8:0 hold",
    NOERRNO, DEAD, ANY, 0 },
  { "option: info, unknown info, then good", "info",
    OPT (3, 2) "u16:99 good", 0, ALIVE, ANY, 0 },
  { "option: info, ACK without the export", "info", OPT (1, 0),
    NOERRNO, DEAD, ANY, 0 },
  { "option: go, error reply", "go", OPT (0x80000006, 0),
    ENOENT, ALIVE, ANY, 0 },
  { "option: meta, context length too short", "meta",
    OPT (4, 3) "u16:0 u8:0 hold", NOERRNO, DEAD, ANY, 0 },
  { "option: meta, context name at the maximum", "meta",
    OPT (4, 4100) "u32:7 zero:4096 " OPT (1, 0), 0, ALIVE, ANY, 0 },
  { "option: meta, context length too long", "meta",
    OPT (4, 4101) "hold", NOERRNO, DEAD, ANY, 0 },
  { "option: info, name info too long", "info",
    OPT (3, 4099) "hold", NOERRNO, DEAD, ANY, 0 },
  { "option: info, name info at the maximum", "info",
    OPT (3, 4098) "u16:1 zero:4096 good", 0, ALIVE, ANY, 0 },
  { "option: meta, the context given twice", "meta",
    OPT (4, 19) "u32:1 str:base:allocation "
    OPT (4, 19) "u32:2 str:base:allocation " OPT (1, 0), 0, ALIVE, ANY, 0 },
  { "option: meta, good", "meta", "good", 0, ALIVE, ANY, 0 },
};

#define NR_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

static int error_callbacks;

static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  if (status == LIBNBD_READ_ERROR) {
    error_callbacks++;
    if (*error != EIO || count != 0 || offset < OFF || offset >= OFF + COUNT)
      error_callbacks += 100;   /* wrong arguments: no count matches */
  }
  (void) user_data; (void) subbuf;
  return 0;
}

static bool
is_opt_target (const char *target)
{
  return strcmp (target, "read") != 0 && strcmp (target, "bs") != 0 &&
    strcmp (target, "write") != 0;
}

static struct nbd_handle *
connect_script (const char *argv0, const struct scenario *s)
{
  static char path[4096];
  char *args[] = { path, "script", (char *) s->target, (char *) s->tokens,
                   NULL };
  struct nbd_handle *h;

  fake_server_path (argv0, path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_pread_initialize (h, false) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_set_opt_mode (h, is_opt_target (s->target)) == 0);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("%s: connecting: %s", s->name, nbd_get_error ());
  return h;
}

/* Run the scenario's call; -1 or 0 as the call returns. */
static int
run_call (struct nbd_handle *h, const struct scenario *s, char *buf)
{
  const char *t = s->target;

  error_callbacks = 0;
  if (strcmp (t, "read") == 0)
    return nbd_pread_structured (h, buf, COUNT, OFF,
             (nbd_chunk_callback) { .callback = chunk_cb }, 0);
  if (strcmp (t, "bs") == 0)
    return nbd_block_status (h, COUNT, OFF,
             (nbd_extent_callback) { .callback = noop_extent_cb }, 0);
  if (strcmp (t, "write") == 0)
    return nbd_pwrite (h, buf, COUNT, OFF, 0);
  if (strcmp (t, "list") == 0)
    return nbd_opt_list (h, (nbd_list_callback) { .callback = noop_list_cb })
      == -1 ? -1 : 0;
  if (strcmp (t, "info") == 0)
    return nbd_opt_info (h);
  if (strcmp (t, "go") == 0)
    return nbd_opt_go (h);
  return nbd_opt_set_meta_context (h,
           (nbd_context_callback) { .callback = noop_context_cb }) == -1
    ? -1 : 0;
}

/* Still usable: a read (after GO, in opt mode) returns the right data. */
static bool
usable (struct nbd_handle *h, const struct scenario *s)
{
  static unsigned char buf[512];

  if (is_opt_target (s->target) && nbd_aio_is_negotiating (h) == 1 &&
      nbd_opt_go (h) == -1)
    return false;
  if (nbd_aio_is_ready (h) != 1)
    return false;
  memset (buf, 0, sizeof buf);
  return nbd_pread (h, buf, sizeof buf, 65536, 0) == 0 &&
    is_pattern (buf, sizeof buf, 65536);
}

static bool
guards_intact (const unsigned char *mem, size_t len)
{
  size_t i;

  for (i = 0; i < GUARD; ++i)
    if (mem[i] != 0xa5 || mem[len - 1 - i] != 0xa5)
      return false;
  return true;
}

static bool
content_ok (const unsigned char *buf, enum content c)
{
  size_t i;

  if (c == PATTERN)
    return is_pattern (buf, COUNT, OFF);
  for (i = 0; c == ZEROES && i < COUNT; ++i)
    if (buf[i] != 0)
      return false;
  return true;
}

/* One scenario; NULL if it passed, else what went wrong. */
static const char *
run_scenario (const char *argv0, const struct scenario *s)
{
  static unsigned char mem[GUARD + COUNT + GUARD];
  static char why[256];
  unsigned char *buf = mem + GUARD;
  struct nbd_handle *h = connect_script (argv0, s);
  int r, err;
  const char *fail = NULL;

  memset (mem, 0xa5, sizeof mem);
  r = run_call (h, s, (char *) buf);
  err = r == -1 ? nbd_get_errno () : 0;
  if (r == -1 && err == 0)
    err = NOERRNO;
  if (err != s->err) {
    snprintf (why, sizeof why, "errno %d (%s), expected %d",
              err, r == -1 ? nbd_get_error () : "success", s->err);
    fail = why;
  }
  else if (!guards_intact (mem, sizeof mem))
    fail = "bytes outside the request changed";
  else if (r == 0 && !content_ok (buf, s->content))
    fail = "the buffer does not hold what the server sent";
  else if (error_callbacks != s->error_callbacks)
    fail = "the chunk callback saw the wrong LIBNBD_READ_ERROR calls";
  else if (s->after == DEAD && nbd_aio_is_dead (h) != 1)
    fail = "the handle is not dead";
  else if (s->after == CLOSED && nbd_aio_is_closed (h) != 1)
    fail = "the handle is not closed";
  else if (s->after == ALIVE && !usable (h, s))
    fail = "the handle is no longer usable";
  nbd_close (h);
  return fail;
}

int
main (int argc, char *argv[])
{
  size_t i;
  int failed = 0;
  const char *why;

  (void) argc;
  printf ("1..%zu\n", NR_SCENARIOS);
  for (i = 0; i < NR_SCENARIOS; ++i) {
    why = run_scenario (argv[0], &scenarios[i]);
    if (why) {
      printf ("not ok %zu - %s: %s\n", i + 1, scenarios[i].name, why);
      failed++;
    }
    else
      printf ("ok %zu - %s\n", i + 1, scenarios[i].name);
    fflush (stdout);
  }
  exit (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
