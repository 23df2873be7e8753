/* fake-server.c: an NBD server on stdin/stdout that misbehaves on cue. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <stdarg.h>
#include <inttypes.h>
#include <errno.h>
#include <unistd.h>
#include <endian.h>
#include <sys/socket.h>

#include "fake-wire.h"

#include "fake-server.h"

/* Usage: fake-server SCENARIO
 *
 * It does a fixed newstyle handshake and serves a 1 MiB disk holding
 * the nbdkit pattern (each 8-byte aligned offset stored as a 64 bit
 * big-endian number).  Reads, writes, flush, trim, zero, cache and
 * block status all work, except that the first read (or block status)
 * is answered wrongly as the scenario says:
 *
 *   good            nothing wrong; reads come as two data chunks,
 *                   the second half first
 *   short           data chunks cover only the first half of the read
 *   overlap         chunk lengths add up to the request, but the middle
 *                   quarter is sent twice and the last quarter never
 *   out-of-range    a data chunk running past the end of the request
 *   unknown-cookie  a chunk for a cookie never used, then a good reply
 *   huge-chunk      a chunk header with length 0xffffffff
 *   error-chunk     a well-formed NBD_REPLY_TYPE_ERROR chunk with EIO
 *   size-too-big    the export size is advertised as 2^63
 *   simple-reply-to-read-with-sr
 *                   a simple reply plus data to a read although
 *                   structured replies were negotiated
 *   bad-magic       a reply with a wrong magic number
 *   hangup          half a data chunk, then the connection closes
 *   block-status-bad
 *                   extents of length zero and past the export's end
 *   no-go           NBD_OPT_GO and NBD_OPT_INFO are refused as unknown,
 *                   as servers from before them do; everything else
 *                   works
 *   extra-context   NBD_OPT_SET_META_CONTEXT also names a context that
 *                   was not asked for
 *
 *   ooo-1byte       the first read comes as 1-byte data chunks: even
 *                   bytes last first, then the odd ones
 *   ooo-1byte-dup   the same, but one byte comes twice and one never
 *   tiny-chunks     the first read comes as 1-byte chunks, in order
 *   long-list       NBD_OPT_LIST names 20000 exports, 1000-byte names
 *   many-extents    block status answers with one extent per byte,
 *                   up to 100000
 *   bs-twice        the disk has a hole (zeroes at [256 KiB, 384 KiB)),
 *                   and every block status is answered with two true
 *                   base:allocation chunks: the first half of the
 *                   request, then (DONE) the whole of it
 *   bs-twice-reversed
 *                   the same, the whole request first, then its first
 *                   half
 *
 * Or: fake-server script TARGET TOKENS: the first TARGET (read, bs,
 * write, or the option list, info, go, meta, lmeta, sr, tls, eh) is
 * answered with the bytes TOKENS spell (see fake-script.c); the rest
 * is served right.
 *
 * Started by systemd socket activation (as nbdcopy, nbdinfo and
 * nbddump start [ fake-server SCENARIO ]), it serves the first
 * connection to the listening socket it is given.
 *
 * SCENARIO may end in ":N" (say "hangup:4"): the server then holds
 * back its replies until N reads have arrived, so that a test can have
 * N reads in flight when the first one goes wrong.
 *
 * After a reply that leaves the stream out of sync the server sends
 * nothing more, and exits when the client closes the connection.
 *
 * With $FAKE_SERVER_LOG set, every option and request received is
 * logged to that file, one line each (the differential tests compare
 * what two libraries sent).
 */

#define DISK_SIZE (1024 * 1024)
#define MAX_PAYLOAD (64 * 1024 * 1024)

#define CONTEXT_ID 1            /* our id for base:allocation */

/* bs-twice: the hole, and the granule its block status is true to. */
#define HOLE_START (256 * 1024)
#define HOLE_LEN (128 * 1024)
#define BS_BLOCK (64 * 1024)
#define MAX_RUNS (DISK_SIZE / BS_BLOCK + 1)

static const char *scenario;
static const char *script_target; /* fake-server script TARGET TOKENS */
static const char *script_tokens;
static bool script_played;      /* its target has been answered */
static bool go_done;            /* a scripted 'good' finished NBD_OPT_GO */
static unsigned batch = 1;      /* reads to collect before replying */
unsigned char *disk;
static bool structured;         /* NBD_OPT_STRUCTURED_REPLY accepted */
static bool meta;               /* base:allocation negotiated */
static bool misbehaved;         /* the scenario has been played */

static bool
is (const char *name)
{
  return strcmp (scenario, name) == 0;
}

static void
die (const char *msg)
{
  fprintf (stderr, "fake-server: %s: %s\n", scenario, msg);
  exit (EXIT_FAILURE);
}

/* Discard everything until the client closes the connection. */
void
drain (void)
{
  char buf[4096];

  for (;;)
    get (buf, 1);
  (void) buf;
}

static uint64_t
export_size (void)
{
  if (is ("size-too-big"))
    return (uint64_t) INT64_MAX + 1;
  return DISK_SIZE;
}

static uint16_t
export_flags (void)
{
  uint16_t flags = TFLAG_HAS_FLAGS | TFLAG_SEND_FLUSH | TFLAG_SEND_FUA |
    TFLAG_SEND_TRIM | TFLAG_SEND_WRITE_ZEROES | TFLAG_SEND_CACHE;

  if (structured)
    flags |= TFLAG_SEND_DF;
  return flags;
}


/* Log what the client sent, for tests that compare it: one line per
 * option or request, to the file $FAKE_SERVER_LOG names (if set).
 */
static void
log_received (const char *fmt, ...)
{
  static FILE *fp;
  static bool opened;
  const char *name;
  va_list ap;

  if (!opened) {
    opened = true;
    name = getenv ("FAKE_SERVER_LOG");
    if (name && *name) {
      fp = fopen (name, "a");
      if (fp == NULL)
        die ("cannot open $FAKE_SERVER_LOG");
      setvbuf (fp, NULL, _IOLBF, 0);
    }
  }
  if (fp == NULL)
    return;
  va_start (ap, fmt);
  vfprintf (fp, fmt, ap);
  va_end (ap);
  fputc ('\n', fp);
}

/* One meta context query: base:allocation is the only one we know. */
static void
meta_query (uint32_t option, const char *query, uint32_t len, void *opaque)
{
  static const char base[] = "base:allocation";

  if (len == strlen (base) && memcmp (query, base, len) == 0) {
    opt_reply (option, REP_META_CONTEXT, 4 + len);
    put32 (CONTEXT_ID);
    put (base, len);
    if (option == OPT_SET_META_CONTEXT)
      meta = true;
  }
}

/* NBD_OPT_{LIST,SET}_META_CONTEXT: answer base:allocation queries. */
static void
meta_context (uint32_t option, const char *data, uint32_t len)
{
  if (!structured ||
      meta_queries (option, data, len, meta_query, NULL) == -1) {
    opt_reply (option, REP_ERR_INVALID, 0);
    return;
  }
  if (is ("extra-context") && option == OPT_SET_META_CONTEXT) {
    static const char extra[] = "fake:unrequested";
    opt_reply (option, REP_META_CONTEXT, 4 + strlen (extra));
    put32 (CONTEXT_ID + 1);
    put (extra, strlen (extra));
  }
  opt_reply (option, REP_ACK, 0);
}

/* NBD_OPT_LIST: one export, or many with long names (long-list). */
static void
list_exports (uint32_t option)
{
  static char name[1000];
  unsigned i, n = is ("long-list") ? 20000 : 1;
  uint32_t len = is ("long-list") ? sizeof name : 0;

  memset (name, 'x', sizeof name);
  for (i = 0; i < n; ++i) {
    opt_reply (option, REP_SERVER, 4 + len);
    put32 (len);
    put (name, len);
  }
  opt_reply (option, REP_ACK, 0);
}

static void
export_info (uint32_t option)
{
  opt_reply (option, REP_INFO, 12);
  put16 (INFO_EXPORT);
  put64 (export_size ());
  put16 (export_flags ());
  opt_reply (option, REP_ACK, 0);
}

/* Answer one option right; true when transmission begins. */
static bool
answer_option (uint32_t option, const char *data, uint32_t len,
               uint32_t client_flags)
{
  switch (option) {
  case OPT_EXPORT_NAME:
    put64 (export_size ());
    put16 (export_flags ());
    if (!(client_flags & FLAG_NO_ZEROES)) {
      static const char zeroes[124];
      put (zeroes, sizeof zeroes);
    }
    return true;
  case OPT_ABORT:
    opt_reply (option, REP_ACK, 0);
    exit (EXIT_SUCCESS);
  case OPT_STRUCTURED_REPLY:
    if (len != 0)
      opt_reply (option, REP_ERR_INVALID, 0);
    else {
      structured = true;
      opt_reply (option, REP_ACK, 0);
    }
    return false;
  case OPT_LIST_META_CONTEXT:
  case OPT_SET_META_CONTEXT:
    meta_context (option, data, len);
    return false;
  case OPT_LIST:
    list_exports (option);
    return false;
  case OPT_INFO:
  case OPT_GO:
    if (is ("no-go")) {         /* a server from before NBD_OPT_GO */
      opt_reply (option, REP_ERR_UNSUP, 0);
      return false;
    }
    export_info (option);
    return option == OPT_GO;
  }
  opt_reply (option, REP_ERR_UNSUP, 0);
  return false;
}

/* The option a script target names, or 0. */
static uint32_t
target_option (void)
{
  static const struct { const char *name; uint32_t option; } t[] = {
    { "list", OPT_LIST }, { "info", OPT_INFO }, { "go", OPT_GO },
    { "meta", OPT_SET_META_CONTEXT }, { "lmeta", OPT_LIST_META_CONTEXT },
    { "sr", OPT_STRUCTURED_REPLY }, { "tls", OPT_STARTTLS },
    { "eh", OPT_EXTENDED_HEADERS },
  };
  size_t i;

  for (i = 0; script_target && i < sizeof t / sizeof t[0]; ++i)
    if (strcmp (script_target, t[i].name) == 0)
      return t[i].option;
  return 0;
}

/* What a scripted option needs to answer it right with 'good'. */
struct option_args {
  const char *data;
  uint32_t len, client_flags;
};

static void
good_option (const struct script_ctx *c)
{
  const struct option_args *a = c->opaque;

  go_done = answer_option (c->option, a->data, a->len, a->client_flags);
}

/* Answer an option as the script says, if it is the target. */
static bool
scripted_option (uint32_t option, const char *data, uint32_t len,
                 uint32_t client_flags)
{
  struct option_args a = { data, len, client_flags };
  struct script_ctx c = { .option = option, .good = good_option,
                          .opaque = &a };

  if (script_played || option != target_option ())
    return answer_option (option, data, len, client_flags);
  script_played = true;
  go_done = false;
  script_play (script_tokens, &c);
  return go_done;
}

/* Negotiate options until the client picks an export. */
static void
handshake (void)
{
  uint32_t client_flags, option, len;
  char *data;
  bool done = false;

  put64 (NBDMAGIC);
  put64 (IHAVEOPT);
  put16 (FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES);
  client_flags = get32 ();

  while (!done) {
    if (get64 () != IHAVEOPT)
      die ("bad option magic");
    option = get32 ();
    len = get32 ();
    if (len > 65536)
      die ("option too long");
    data = malloc (len + 1);
    if (data == NULL)
      die ("malloc");
    get (data, len);
    log_received ("option %u length %u", option, len);
    done = scripted_option (option, data, len, client_flags);
    free (data);
  }
}

/* An OFFSET_DATA chunk carrying the disk's bytes [offset, offset+len). */
static void
data_chunk (uint64_t cookie, uint16_t flags, uint64_t offset, uint32_t len)
{
  chunk_header (cookie, flags, REPLY_TYPE_OFFSET_DATA, 8 + len);
  put64 (offset);
  put (disk + offset, len);
}

static void
error_chunk (uint64_t cookie, uint32_t error, const char *msg)
{
  chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_ERROR, 6 + strlen (msg));
  put32 (error);
  put16 (strlen (msg));
  put (msg, strlen (msg));
}

static void
none_chunk (uint64_t cookie)
{
  chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_NONE, 0);
}

static void
good_read (uint64_t cookie, uint64_t offset, uint32_t count)
{
  uint32_t half = count / 2;

  if (!structured) {
    simple_reply (cookie, 0);
    put (disk + offset, count);
  }
  else if (half == 0)
    data_chunk (cookie, REPLY_FLAG_DONE, offset, count);
  else {
    /* Chunks may come in any order: send the second half first. */
    data_chunk (cookie, 0, offset + half, count - half);
    data_chunk (cookie, REPLY_FLAG_DONE, offset, half);
  }
}

/* 1-byte data chunks: the even bytes last first, then the odd ones
 * likewise, so no chunk lands next to one already there until half
 * have arrived.  With DUP, byte 1 comes in place of byte 0.
 */
static void
one_byte_chunks (uint64_t cookie, uint64_t offset, uint32_t count, bool dup)
{
  uint32_t i, n = 0, pos;

  for (i = 0; i < count; ++i) {
    if (is ("tiny-chunks"))
      pos = i;
    else
      pos = i < (count + 1) / 2 ? (count - 1) / 2 * 2 - 2 * i
        : (count - 2) / 2 * 2 + 1 - 2 * (i - (count + 1) / 2);
    if (dup && pos == 0)
      pos = 1;
    data_chunk (cookie, ++n == count ? REPLY_FLAG_DONE : 0, offset + pos, 1);
  }
}

static void
good_read_ctx (const struct script_ctx *c)
{
  good_read (c->cookie, c->offset, c->count);
}

static void
play (const char *target, uint64_t cookie, uint64_t offset, uint32_t count,
      void (*good) (const struct script_ctx *))
{
  struct script_ctx c = { .cookie = cookie, .offset = offset,
                          .count = count, .good = good };

  if (script_played || strcmp (script_target, target) != 0) {
    good (&c);
    return;
  }
  script_played = true;
  script_play (script_tokens, &c);
}

/* The first read, answered as the scenario says. */
static void
bad_read (uint64_t cookie, uint64_t offset, uint32_t count)
{
  uint32_t q = count / 4;

  if (is ("ooo-1byte") || is ("ooo-1byte-dup") || is ("tiny-chunks"))
    one_byte_chunks (cookie, offset, count, is ("ooo-1byte-dup"));
  else if (is ("short")) {
    data_chunk (cookie, 0, offset, count / 2);
    none_chunk (cookie);
  }
  else if (is ("overlap")) {
    /* [0,2q) and [q,3q): lengths sum to the request for count = 4q. */
    data_chunk (cookie, 0, offset, 2 * q);
    data_chunk (cookie, REPLY_FLAG_DONE, offset + q, count - 2 * q);
  }
  else if (is ("out-of-range")) {
    /* Runs count/2 bytes past the end of the request. */
    data_chunk (cookie, 0, offset, count / 2);
    data_chunk (cookie, REPLY_FLAG_DONE, offset + count / 2, count);
  }
  else if (is ("unknown-cookie")) {
    none_chunk (cookie ^ UINT64_C (0x5a5a5a5a00000000));
    good_read (cookie, offset, count);
  }
  else if (is ("huge-chunk")) {
    chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_OFFSET_DATA,
                  UINT32_C (0xffffffff));
    put64 (offset);
    put (disk + offset, count);
    drain ();
  }
  else if (is ("error-chunk"))
    error_chunk (cookie, NBD_EIO, "injected error");
  else if (is ("simple-reply-to-read-with-sr")) {
    simple_reply (cookie, 0);
    put (disk + offset, count);
  }
  else if (is ("bad-magic")) {
    put32 (0x12345678);
    put32 (0);
    put64 (cookie);
    put (disk + offset, count);
    drain ();
  }
  else if (is ("hangup")) {
    chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_OFFSET_DATA, 8 + count);
    put64 (offset);
    put (disk + offset, count / 2);
    exit (EXIT_SUCCESS);
  }
  else
    good_read (cookie, offset, count);
}

/* One extent per byte (many-extents), or one for the whole range. */
static void
good_block_status (uint64_t cookie, uint32_t count)
{
  uint32_t i, n = 1, len = count;

  if (is ("many-extents")) {
    n = count < 100000 ? count : 100000;
    len = 1;
  }
  chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_BLOCK_STATUS, 4 + 8 * n);
  put32 (CONTEXT_ID);
  for (i = 0; i < n; ++i) {
    put32 (len);
    put32 (i & 1);
  }
}

static void
good_block_status_ctx (const struct script_ctx *c)
{
  good_block_status (c->cookie, c->count);
}

static bool
all_zero (const unsigned char *p, uint64_t len)
{
  uint64_t i;

  for (i = 0; i < len; ++i)
    if (p[i] != 0)
      return false;
  return true;
}

/* A block status chunk saying what [OFFSET, +COUNT) really holds: runs
 * of BS_BLOCK-aligned pieces that are all zero (a hole reading as
 * zeroes) or not (data).
 */
static void
true_chunk (uint64_t cookie, uint16_t flags, uint64_t offset,
            uint32_t count)
{
  static uint32_t len[MAX_RUNS];
  static bool zero[MAX_RUNS];
  uint64_t pos = offset, end = offset + count, next;
  size_t i, n = 0;
  bool z;

  while (pos < end) {
    next = (pos / BS_BLOCK + 1) * BS_BLOCK;
    if (next > end)
      next = end;
    z = all_zero (disk + pos, next - pos);
    if (n > 0 && zero[n - 1] == z)
      len[n - 1] += next - pos;
    else {
      len[n] = next - pos;
      zero[n++] = z;
    }
    pos = next;
  }
  chunk_header (cookie, flags, REPLY_TYPE_BLOCK_STATUS, 4 + 8 * n);
  put32 (CONTEXT_ID);
  for (i = 0; i < n; ++i) {
    put32 (len[i]);
    put32 (zero[i] ? 3 : 0);    /* NBD_STATE_HOLE | NBD_STATE_ZERO */
  }
}

/* bs-twice and bs-twice-reversed: one context, described twice. */
static void
bs_twice (uint64_t cookie, uint64_t offset, uint32_t count)
{
  uint32_t half = (count + 1) / 2;
  bool reversed = is ("bs-twice-reversed");

  true_chunk (cookie, 0, offset, reversed ? count : half);
  true_chunk (cookie, REPLY_FLAG_DONE, offset, reversed ? half : count);
}

static void
block_status (uint64_t cookie, uint64_t offset, uint32_t count)
{
  if (is ("script")) {
    play ("bs", cookie, offset, count, good_block_status_ctx);
    return;
  }
  if (!meta) {
    if (structured)
      error_chunk (cookie, NBD_EINVAL, "no meta context negotiated");
    else
      simple_reply (cookie, NBD_EINVAL);
    return;
  }
  if (is ("bs-twice") || is ("bs-twice-reversed")) {
    bs_twice (cookie, offset, count);
    return;
  }
  if (is ("block-status-bad") && !misbehaved) {
    misbehaved = true;
    /* A zero length extent, then one running far past the export. */
    chunk_header (cookie, REPLY_FLAG_DONE, REPLY_TYPE_BLOCK_STATUS, 4 + 16);
    put32 (CONTEXT_ID);
    put32 (0);
    put32 (0);
    put32 (UINT32_C (0xfffff000));
    put32 (0);
    return;
  }
  good_block_status (cookie, count);
}

/* The first BATCH reads, held back until all have arrived. */
struct held_read {
  uint64_t cookie, offset;
  uint32_t count;
};

static void
read_command (uint64_t cookie, uint64_t offset, uint32_t count)
{
  static struct held_read *held;
  static unsigned nr_held;
  unsigned i;

  if (is ("script")) {
    play ("read", cookie, offset, count, good_read_ctx);
    return;
  }
  if (misbehaved) {
    good_read (cookie, offset, count);
    return;
  }
  if (held == NULL) {
    held = calloc (batch, sizeof *held);
    if (held == NULL)
      die ("calloc");
  }
  held[nr_held].cookie = cookie;
  held[nr_held].offset = offset;
  held[nr_held].count = count;
  if (++nr_held < batch)
    return;

  misbehaved = true;
  bad_read (held[0].cookie, held[0].offset, held[0].count);
  for (i = 1; i < batch; ++i)
    good_read (held[i].cookie, held[i].offset, held[i].count);
}

static void
good_write_ctx (const struct script_ctx *c)
{
  simple_reply (c->cookie, 0);
}

static void
write_command (uint64_t cookie, uint64_t offset, uint32_t count)
{
  char *buf;

  if (count > MAX_PAYLOAD)
    die ("write too large");
  buf = malloc (count);
  if (buf == NULL)
    die ("malloc");
  get (buf, count);
  if (offset > DISK_SIZE || count > DISK_SIZE - offset)
    simple_reply (cookie, NBD_EINVAL);
  else {
    memcpy (disk + offset, buf, count);
    if (is ("script"))
      play ("write", cookie, offset, count, good_write_ctx);
    else
      simple_reply (cookie, 0);
  }
  free (buf);
}

/* Read one request and answer it. */
void
serve_request (void)
{
  uint16_t flags, type;
  uint64_t cookie, offset;
  uint32_t count;

  if (get32 () != REQUEST_MAGIC)
    die ("bad request magic");
  flags = get16 ();
  type = get16 ();
  cookie = get64 ();
  offset = get64 ();
  count = get32 ();
  log_received ("request type %u flags 0x%x offset %" PRIu64 " count %u",
                type, flags, offset, count);

  if (type == CMD_DISC)
    exit (EXIT_SUCCESS);
  if (type == CMD_WRITE) {
    write_command (cookie, offset, count);
    return;
  }
  if (type != CMD_FLUSH &&
      (offset > DISK_SIZE || count > DISK_SIZE - offset)) {
    if (structured && (type == CMD_READ || type == CMD_BLOCK_STATUS))
      error_chunk (cookie, NBD_EINVAL, "out of range");
    else
      simple_reply (cookie, NBD_EINVAL);
    return;
  }

  switch (type) {
  case CMD_READ:
    read_command (cookie, offset, count);
    break;
  case CMD_WRITE_ZEROES:
  case CMD_TRIM:
    memset (disk + offset, 0, count);
    simple_reply (cookie, 0);
    break;
  case CMD_FLUSH:
  case CMD_CACHE:
    simple_reply (cookie, 0);
    break;
  case CMD_BLOCK_STATUS:
    block_status (cookie, offset, count);
    break;
  default:
    simple_reply (cookie, NBD_EINVAL);
  }
}

/* Under socket activation, the first connection becomes stdin and
 * stdout, where the rest of the server speaks.
 */
static void
accept_activated (void)
{
  const char *fds = getenv ("LISTEN_FDS"), *pid = getenv ("LISTEN_PID");
  int s;

  if (fds == NULL || pid == NULL || atoi (fds) != 1 ||
      atol (pid) != (long) getpid ())
    return;
  s = accept (3, NULL, NULL);
  if (s == -1)
    die ("accept");
  if (dup2 (s, STDIN_FILENO) == -1 || dup2 (s, STDOUT_FILENO) == -1)
    die ("dup2");
  close (s);
  close (3);
}

int
main (int argc, char *argv[])
{
  uint64_t i;
  char *colon;

  if (argc == 4 && strcmp (argv[1], "script") == 0) {
    script_target = argv[2];
    script_tokens = argv[3];
  }
  else if (argc != 2) {
    fprintf (stderr, "usage: %s SCENARIO[:N] | script TARGET TOKENS\n",
             argv[0]);
    exit (EXIT_FAILURE);
  }
  scenario = argv[1];
  colon = script_target ? NULL : strchr (argv[1], ':');
  if (colon) {
    *colon = '\0';
    batch = atoi (colon + 1);
    if (batch < 1 || batch > 1024)
      die ("bad batch count");
  }

  disk = malloc (DISK_SIZE);
  if (disk == NULL)
    die ("malloc");
  for (i = 0; i < DISK_SIZE; i += 8) {
    uint64_t v = htobe64 (i);
    memcpy (disk + i, &v, 8);
  }
  if (is ("bs-twice") || is ("bs-twice-reversed"))
    memset (disk + HOLE_START, 0, HOLE_LEN);

  accept_activated ();
  handshake ();
  for (;;)                      /* until NBD_CMD_DISC or EOF */
    serve_request ();
  return EXIT_SUCCESS;
}
