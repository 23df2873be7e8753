/* ext-server.c: an NBD server on stdin/stdout speaking extended headers. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <endian.h>
#include <inttypes.h>

#include "fake-wire.h"

/* Usage: ext-server SCENARIO
 *
 * A fixed newstyle server, written from the NBD protocol document,
 * that agrees to NBD_OPT_EXTENDED_HEADERS and then reads 32-byte
 * requests and answers with 32-byte reply chunks.  Its export is
 * 8 GiB, kept as a map of 1 MiB granules, each data (reads give the
 * pattern of fake-server, bytes of the first granule as written) or
 * zero (a hole: reads give zeroes).  Block status reports the map in
 * base:allocation (id 1) and in x-ext:inverse (id 2, flags inverted),
 * and honours NBD_CMD_FLAG_PAYLOAD_LEN's filter of context ids.
 *
 * SCENARIO:
 *   good           everything right
 *   refuse         NBD_OPT_EXTENDED_HEADERS refused (NBD_REP_ERR_POLICY)
 *   invalid        refused with NBD_REP_ERR_INVALID
 *   absent         the option is unknown (NBD_REP_ERR_UNSUP); compact
 *                  requests, simple and structured replies
 *   no-payload     extended headers, without NBD_FLAG_BLOCK_STAT_PAYLOAD
 *   sr-ack         NBD_OPT_STRUCTURED_REPLY after extended headers is
 *                  agreed (by default: NBD_REP_ERR_EXT_HEADER_REQD)
 *   early-reply    a request with a payload (a write, or a block status
 *                  filter) is answered as soon as its header is read;
 *                  the payload is read 100 ms later, and must not change
 *                  on the way: a write's bytes all like its first, a
 *                  filter's ids all like its first.  If one does, the
 *                  server exits with status 3 (the client sent bytes it
 *                  had no right to touch after completing the command).
 * and these, played on the first read (R) or block status (B), with
 * the rest served right while the stream is still in step:
 *   simple-magic   R: a simple reply (16 bytes), then nothing
 *   structured-magic R: a structured chunk header (20 bytes), then
 *                  nothing: the client must not wait for 32
 *   wrong-offset   R: a good data chunk whose header offset is wrong
 *   data-outside   R: a data chunk whose 64-bit offset lies past the
 *                  request (the header's offset right)
 *   huge-length    R: a chunk header announcing 2^40 bytes
 *   unknown-cookie R: an error chunk for a cookie never used, then the
 *                  right reply
 *   bs-narrow      B: a 32-bit NBD_REPLY_TYPE_BLOCK_STATUS chunk
 *   bs-count       B: descriptor count one more than the payload holds
 *   bs-odd         B: a payload that is not a whole number of extents
 *   bs-zero        B: a first extent of length 0
 *   bs-past-end    B: extents running past the end of the export
 *   bs-flags64     B: every extent's flags with bit 32 set
 *   ext-on-compact (with the option refused) R: an extended reply
 * and these, played on every read, the stream staying in step (for
 * the fuzzer's seeds: chunk types the good server never sends):
 *   read-hole      the first half as data, the second as a hole, then
 *                  a bare NONE chunk with DONE
 *   read-error     an error chunk with a message
 *   read-error-offset the data, then an error chunk naming its
 *                  second byte
 */

#define SIZE (UINT64_C (8) << 30)
#define GRANULE (UINT64_C (1) << 20)
#define NR_GRANULES (SIZE / GRANULE)
#define MAX_PAYLOAD (64 * 1024 * 1024)

static const char *scenario;
static bool extended, structured, played;
static bool contexts[3];        /* ids 1 and 2 selected */
static unsigned char granule_zero[NR_GRANULES];
static unsigned char first[GRANULE]; /* granule 0's bytes */

static bool
is (const char *name)
{
  return strcmp (scenario, name) == 0;
}

/* The stream is out of step: say nothing more. */
static void
drain (void)
{
  char c;

  for (;;)
    get (&c, 1);
}


static uint16_t
export_flags (void)
{
  /* HAS_FLAGS, FLUSH, FUA, TRIM, WRITE_ZEROES, CACHE; and the block
   * status payload once extended headers are on.
   */
  uint16_t flags = 1 | 4 | 8 | 32 | 64 | 1024;

  if (extended && !is ("no-payload"))
    flags |= 1 << 12;
  return flags;
}

static const char *const context_names[3] = {
  NULL, "base:allocation", "x-ext:inverse"
};

/* One meta context query: either of our two contexts, by exact name. */
static void
meta_query (uint32_t option, const char *query, uint32_t len, void *opaque)
{
  uint32_t id;

  for (id = 1; id <= 2; ++id)
    if (len == strlen (context_names[id]) &&
        memcmp (query, context_names[id], len) == 0) {
      opt_reply (option, REP_META_CONTEXT, 4 + len);
      put32 (id);
      put (context_names[id], len);
      if (option == OPT_SET_META_CONTEXT)
        contexts[id] = true;
    }
}

/* NBD_OPT_{LIST,SET}_META_CONTEXT: our two contexts by exact name. */
static void
meta_context (uint32_t option, const char *data, uint32_t len)
{
  if (!structured ||
      meta_queries (option, data, len, meta_query, NULL) == -1)
    opt_reply (option, REP_ERR_INVALID, 0);
  else
    opt_reply (option, REP_ACK, 0);
}

static void
extended_headers (uint32_t option, uint32_t len)
{
  if (len != 0 || is ("invalid"))
    opt_reply (option, REP_ERR_INVALID, 0);
  else if (is ("refuse") || is ("ext-on-compact"))
    opt_reply (option, REP_ERR_POLICY, 0);
  else if (is ("absent"))
    opt_reply (option, REP_ERR_UNSUP, 0);
  else {
    extended = structured = true;
    opt_reply (option, REP_ACK, 0);
  }
}

/* Answer one option; true when transmission begins. */
static bool
answer_option (uint32_t option, const char *data, uint32_t len)
{
  switch (option) {
  case OPT_ABORT:
    opt_reply (option, REP_ACK, 0);
    wire_flush ();
    exit (EXIT_SUCCESS);
  case OPT_EXTENDED_HEADERS:
    extended_headers (option, len);
    return false;
  case OPT_STRUCTURED_REPLY:
    /* No downgrade once extended headers are on (unless sr-ack). */
    if (extended && !is ("sr-ack"))
      opt_reply (option, REP_ERR_EXT_HEADER_REQD, 0);
    else {
      structured = true;
      opt_reply (option, REP_ACK, 0);
    }
    return false;
  case OPT_LIST_META_CONTEXT:
  case OPT_SET_META_CONTEXT:
    if (option == OPT_SET_META_CONTEXT)
      contexts[1] = contexts[2] = false;
    meta_context (option, data, len);
    return false;
  case OPT_INFO:
  case OPT_GO:
    opt_reply (option, REP_INFO, 12);
    put16 (0);
    put64 (SIZE);
    put16 (export_flags ());
    opt_reply (option, REP_ACK, 0);
    return option == OPT_GO;
  }
  opt_reply (option, REP_ERR_UNSUP, 0);
  return false;
}

static void
handshake (void)
{
  uint32_t option, len;
  char *data;
  bool go;

  put64 (NBDMAGIC);
  put64 (IHAVEOPT);
  put16 (1 | 2);                /* FIXED_NEWSTYLE | NO_ZEROES */
  get32 ();
  do {
    if (get64 () != IHAVEOPT)
      exit (EXIT_FAILURE);
    option = get32 ();
    len = get32 ();
    if (len > 65536)
      exit (EXIT_FAILURE);
    data = malloc (len + 1);
    if (data == NULL)
      exit (EXIT_FAILURE);
    get (data, len);
    go = answer_option (option, data, len);
    free (data);
  } while (!go);
}

/* A reply chunk header in the negotiated style. */
static void
chunk (uint16_t flags, uint16_t type, uint64_t cookie, uint64_t offset,
       uint64_t len)
{
  if (extended) {
    put32 (EXT_REPLY_MAGIC);
    put16 (flags);
    put16 (type);
    put64 (cookie);
    put64 (offset);
    put64 (len);
  }
  else
    chunk_header (cookie, flags, type, len);
}

/* Success without payload, or an error. */
static void
reply_status (uint64_t cookie, uint64_t offset, uint32_t error)
{
  if (!extended)
    simple_reply (cookie, error);
  else if (error == 0)
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_NONE, cookie, offset, 0);
  else {
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_ERROR, cookie, offset, 6);
    put32 (error);
    put16 (0);
  }
}

static unsigned char
byte_at (uint64_t pos)
{
  uint64_t base = pos & ~UINT64_C (7);

  if (granule_zero[pos / GRANULE])
    return 0;
  if (pos < GRANULE)
    return first[pos];
  return (base >> (8 * (7 - (pos & 7)))) & 0xff;
}

/* Hostile answers to the first read; true if one was played. */
static bool
hostile_read (uint64_t cookie, uint64_t offset, uint64_t count)
{
  uint64_t i;

  if (played)
    return false;
  if (is ("simple-magic")) {
    simple_reply (cookie, 0);
    drain ();
  }
  if (is ("structured-magic")) {
    chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_NONE, 0);
    drain ();
  }
  if (is ("huge-length")) {
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_OFFSET_DATA, cookie, offset,
           UINT64_C (1) << 40);
    drain ();
  }
  if (is ("unknown-cookie")) {
    played = true;
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_ERROR, cookie + 1000, offset, 6);
    put32 (NBD_EINVAL);
    put16 (0);
    return false;
  }
  if (is ("ext-on-compact")) {
    extended = true;
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_NONE, cookie, offset, 0);
    drain ();
  }
  if (is ("wrong-offset") || is ("data-outside")) {
    bool outside = is ("data-outside");
    played = true;
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_OFFSET_DATA, cookie,
           outside ? offset : offset + 512, 8 + count);
    put64 (outside ? offset + (UINT64_C (1) << 32) : offset);
    for (i = 0; i < count; ++i) {
      unsigned char c = byte_at (offset + i);
      put (&c, 1);
    }
    return true;
  }
  return false;
}

/* One data chunk for [offset, offset + count) of the request at
 * REQ_OFFSET, with FLAGS.
 */
static void
data_chunk (uint16_t flags, uint64_t cookie, uint64_t req_offset,
            uint64_t offset, uint64_t count)
{
  uint64_t i;

  chunk (flags, REPLY_TYPE_OFFSET_DATA, cookie, req_offset, 8 + count);
  put64 (offset);
  for (i = 0; i < count; ++i) {
    unsigned char c = byte_at (offset + i);
    put (&c, 1);
  }
}

/* The read-* scenarios; true if one answered the read. */
static bool
other_chunks_read (uint64_t cookie, uint64_t offset, uint64_t count)
{
  static const char msg[] = "ext-server error";
  uint64_t half = count / 2;

  if (is ("read-hole") && count >= 2) {
    data_chunk (0, cookie, offset, offset, half);
    chunk (0, REPLY_TYPE_OFFSET_HOLE, cookie, offset, 12);
    put64 (offset + half);
    put32 (count - half);
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_NONE, cookie, offset, 0);
    return true;
  }
  if (is ("read-error")) {
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_ERROR, cookie, offset,
           6 + sizeof msg - 1);
    put32 (NBD_EIO);
    put16 (sizeof msg - 1);
    put (msg, sizeof msg - 1);
    return true;
  }
  if (is ("read-error-offset") && count >= 2) {
    data_chunk (0, cookie, offset, offset, count);
    chunk (REPLY_FLAG_DONE, REPLY_TYPE_ERROR_OFFSET, cookie, offset,
           6 + sizeof msg - 1 + 8);
    put32 (NBD_EIO);
    put16 (sizeof msg - 1);
    put (msg, sizeof msg - 1);
    put64 (offset + 1);
    return true;
  }
  return false;
}

static void
do_read (uint64_t cookie, uint64_t offset, uint64_t count)
{
  if (hostile_read (cookie, offset, count) ||
      other_chunks_read (cookie, offset, count))
    return;
  data_chunk (REPLY_FLAG_DONE, cookie, offset, offset, count);
}

static void
do_write (uint64_t cookie, uint64_t offset, uint64_t count)
{
  unsigned char c;
  uint64_t i;

  for (i = 0; i < count; ++i) {
    get (&c, 1);
    if (offset + i < GRANULE)
      first[offset + i] = c;
    granule_zero[(offset + i) / GRANULE] = 0;
  }
  reply_status (cookie, offset, 0);
}

/* Trim and zero: whole granules become holes. */
static void
do_zero (uint64_t cookie, uint64_t offset, uint64_t count)
{
  uint64_t g = (offset + GRANULE - 1) / GRANULE;

  for (; (g + 1) * GRANULE <= offset + count; ++g)
    granule_zero[g] = 1;
  reply_status (cookie, offset, 0);
}

/* The extents of context ID from OFFSET for LEN bytes: runs of
 * granules of the same kind, at most MAX of them.
 */
struct extent { uint64_t len, flags; };

static size_t
extents (uint32_t id, uint64_t offset, uint64_t len, bool one,
         struct extent *e, size_t max)
{
  size_t n = 0;
  uint64_t pos = offset, end = offset + len > SIZE ? SIZE : offset + len;

  while (pos < end && n < max) {
    unsigned z = granule_zero[pos / GRANULE];
    uint64_t next = (pos / GRANULE + 1) * GRANULE;
    while (next < end && granule_zero[next / GRANULE] == z)
      next += GRANULE;
    if (next > end)
      next = end;
    e[n].len = next - pos;
    e[n].flags = id == 1 ? (z ? 3 : 0) : (z ? 0 : 3);
    if (!extended && e[n].len > 0x80000000)
      e[n].len = 0x80000000;
    pos += e[n].len;
    n++;
    if (one)
      break;
  }
  return n;
}

/* Block status hostility on the extents of the first reply. */
static void
spoil (struct extent *e, size_t *n, uint32_t *count, uint64_t offset)
{
  if (played)
    return;
  if (is ("bs-count"))
    (*count)++;
  else if (is ("bs-zero"))
    e[0].len = 0;
  else if (is ("bs-past-end")) {
    e[*n - 1].len += GRANULE;
  }
  else if (is ("bs-flags64")) {
    size_t i;
    for (i = 0; i < *n; ++i)
      e[i].flags |= UINT64_C (1) << 32;
  }
}

static void
bs_chunk (uint64_t cookie, uint64_t offset, uint32_t id, bool last,
          struct extent *e, size_t n)
{
  uint32_t count = n;
  uint16_t flags = last ? REPLY_FLAG_DONE : 0;
  size_t i;

  spoil (e, &n, &count, offset);
  if (!extended || (is ("bs-narrow") && !played)) {
    chunk (flags, REPLY_TYPE_BLOCK_STATUS, cookie, offset, 4 + 8 * n);
    put32 (id);
    for (i = 0; i < n; ++i) {
      put32 (e[i].len);
      put32 (e[i].flags);
    }
    return;
  }
  if (is ("bs-odd") && !played) {
    chunk (flags, REPLY_TYPE_BLOCK_STATUS_EXT, cookie, offset, 8 + 16 + 8);
    put32 (id);
    put32 (1);
    put64 (e[0].len);
    put64 (e[0].flags);
    put64 (0);
    return;
  }
  chunk (flags, REPLY_TYPE_BLOCK_STATUS_EXT, cookie, offset, 8 + 16 * n);
  put32 (id);
  put32 (count);
  for (i = 0; i < n; ++i) {
    put64 (e[i].len);
    put64 (e[i].flags);
  }
}

static void
do_block_status (uint64_t cookie, uint16_t flags, uint64_t offset,
                 uint64_t count)
{
  bool want[3] = { false, contexts[1], contexts[2] };
  static struct extent e[64];
  uint64_t len = count;
  uint32_t id, last = 0;
  size_t n;

  if (flags & CMD_FLAG_PAYLOAD_LEN) {
    /* The payload: the effect length, then the ids to report. */
    if (count < 8 || count > 8 + 4 * 16 || (count - 8) % 4 != 0)
      exit (EXIT_FAILURE);
    len = get64 ();
    want[1] = want[2] = false;
    for (count -= 8; count > 0; count -= 4) {
      id = get32 ();
      if (id < 1 || id > 2 || !contexts[id]) {
        reply_status (cookie, offset, NBD_EINVAL);
        return;
      }
      want[id] = true;
    }
  }
  if (offset >= SIZE || len == 0 || (!want[1] && !want[2])) {
    reply_status (cookie, offset, NBD_EINVAL);
    return;
  }
  for (id = 1; id <= 2; ++id)
    if (want[id])
      last = id;
  for (id = 1; id <= 2; ++id) {
    if (!want[id])
      continue;
    n = extents (id, offset, len, flags & CMD_FLAG_REQ_ONE, e, 64);
    bs_chunk (cookie, offset, id, id == last, e, n);
  }
  played = true;
}

/* early-reply: the payload of COUNT bytes, after its command's reply;
 * SKIP is how many leading bytes to pass over (a filter's effect
 * length) and UNIT the size of the items that must all be alike.
 */
static void
check_late_payload (uint64_t count, uint64_t skip, unsigned unit)
{
  unsigned char model[4], item[4];
  uint64_t i;

  usleep (100 * 1000);
  for (i = 0; i < skip && i < count; ++i)
    get (item, 1);
  for (; i + unit <= count; i += unit) {
    get (item, unit);
    if (i == skip)
      memcpy (model, item, unit);
    else if (memcmp (item, model, unit) != 0) {
      fprintf (stderr, "ext-server: early-reply: payload byte %" PRIu64
               " changed after the reply\n", i);
      exit (3);
    }
  }
}

/* early-reply: answer a request with a payload before reading it. */
static bool
early_reply (uint64_t cookie, uint16_t flags, uint16_t type,
             uint64_t offset, uint64_t count)
{
  if (!is ("early-reply"))
    return false;
  if (type == CMD_WRITE) {
    reply_status (cookie, offset, 0);
    check_late_payload (count, 0, 1);
    return true;
  }
  if (type == CMD_BLOCK_STATUS && (flags & CMD_FLAG_PAYLOAD_LEN)) {
    reply_status (cookie, offset, NBD_EINVAL);
    check_late_payload (count, 8, 4);
    return true;
  }
  return false;
}

/* Read one request; false at NBD_CMD_DISC. */
static bool
serve_one (void)
{
  uint32_t magic = get32 ();
  uint16_t flags = get16 (), type = get16 ();
  uint64_t cookie = get64 (), offset = get64 ();
  uint64_t count = extended ? get64 () : get32 ();

  if (magic != (extended ? EXT_REQUEST_MAGIC : REQUEST_MAGIC)) {
    fprintf (stderr, "ext-server: bad request magic 0x%x\n", magic);
    exit (EXIT_FAILURE);
  }
  if (type == CMD_DISC)
    return false;
  if (early_reply (cookie, flags, type, offset, count))
    return true;
  if (type != CMD_BLOCK_STATUS && type != CMD_FLUSH &&
      (offset > SIZE || count > SIZE - offset)) {
    if (type == CMD_WRITE)
      exit (EXIT_FAILURE);
    reply_status (cookie, offset, NBD_EINVAL);
    return true;
  }
  switch (type) {
  case CMD_READ:
    if (count > MAX_PAYLOAD)
      exit (EXIT_FAILURE);
    do_read (cookie, offset, count);
    break;
  case CMD_WRITE: do_write (cookie, offset, count); break;
  case CMD_TRIM:
  case CMD_WRITE_ZEROES: do_zero (cookie, offset, count); break;
  case CMD_BLOCK_STATUS: do_block_status (cookie, flags, offset, count); break;
  default: reply_status (cookie, offset, 0);
  }
  return true;
}

int
main (int argc, char *argv[])
{
  uint64_t i;

  if (argc != 2) {
    fprintf (stderr, "usage: ext-server SCENARIO\n");
    exit (EXIT_FAILURE);
  }
  scenario = argv[1];
  for (i = 0; i < GRANULE; ++i)
    first[i] = ((i & ~UINT64_C (7)) >> (8 * (7 - (i & 7)))) & 0xff;
  handshake ();
  while (serve_one ())
    ;
  wire_flush ();
  exit (EXIT_SUCCESS);
}
