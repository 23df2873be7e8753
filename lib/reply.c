/* reply.c: checking structured reply chunks against their command. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/* Longest block status payload we accept: a context id and a million
 * extents, the most any server we know sends in one chunk (nbdkit's
 * cap; qemu-nbd stops at 128 Ki).
 */
#define MAX_EXTENTS_PAYLOAD (4 + 8 * 1024 * 1024)
/* The same million as 64-bit extents: id, count, 16 bytes each. */
#define MAX_EXTENTS_EXT_PAYLOAD (8 + 16 * 1024 * 1024)

int
nbd_internal_errno_of_nbd_error (uint32_t error)
{
  switch (error) {
  case NBD_SUCCESS: return 0;
  case NBD_EPERM: return EPERM;
  case NBD_EIO: return EIO;
  case NBD_ENOMEM: return ENOMEM;
  case NBD_EINVAL: return EINVAL;
  case NBD_ENOSPC: return ENOSPC;
  case NBD_EOVERFLOW: return EOVERFLOW;
  case NBD_ENOTSUP: return ENOTSUP;
  case NBD_ESHUTDOWN: return ESHUTDOWN;
  default: return EINVAL;
  }
}

static void
fail_cmd (struct command *cmd, int err)
{
  if (cmd->error == 0)
    cmd->error = err;
}

/* The longest chunk payload we skip rather than kill the handle for:
 * past it, a chunk we cannot use is not worth waiting for.
 */
#define MAX_SKIP (64 * 1024 + 64)

/* Error chunks: error, message length, message (16 bit length), and
 * for NBD_REPLY_TYPE_ERROR_OFFSET an offset.
 */
#define MAX_ERROR_PAYLOAD (4 + 2 + 65535 + 8)

/* The longest payload a chunk of TYPE may have as a reply to CMD, or
 * -1 when the chunk cannot be used at all (it is skipped, if it is no
 * longer than MAX_SKIP).
 */
static int64_t
chunk_max (const struct command *cmd, uint16_t type, bool ext)
{
  if (cmd == NULL)
    return -1;
  /* Each header style has its own block status type. */
  if ((type == NBD_REPLY_TYPE_BLOCK_STATUS && ext) ||
      (type == NBD_REPLY_TYPE_BLOCK_STATUS_EXT && !ext))
    return -1;
  switch (type) {
  case NBD_REPLY_TYPE_NONE:
    return 0;
  case NBD_REPLY_TYPE_OFFSET_DATA:
    return cmd->type == NBD_CMD_READ ? 8 + (int64_t) cmd->count : -1;
  case NBD_REPLY_TYPE_OFFSET_HOLE:
    return cmd->type == NBD_CMD_READ ? 12 : -1;
  case NBD_REPLY_TYPE_BLOCK_STATUS:
    return cmd->type == NBD_CMD_BLOCK_STATUS ? MAX_EXTENTS_PAYLOAD : -1;
  case NBD_REPLY_TYPE_BLOCK_STATUS_EXT:
    return cmd->type == NBD_CMD_BLOCK_STATUS ? MAX_EXTENTS_EXT_PAYLOAD : -1;
  }
  return (type & NBD_REPLY_TYPE_ERROR_BIT) ? MAX_ERROR_PAYLOAD : -1;
}

/* The longest payload an option reply of type REPLY may carry: its
 * fixed fields plus the longest strings the protocol allows.  Checked
 * before any byte of the payload is read.
 */
uint32_t
nbd_internal_opt_reply_max (uint32_t reply)
{
  if (NBD_REP_IS_ERR (reply))
    return NBD_MAX_STRING;                  /* a message */
  switch (reply) {
  case NBD_REP_ACK: return 0;
  case NBD_REP_SERVER: return 4 + 2 * NBD_MAX_STRING;
  case NBD_REP_INFO: return 2 + NBD_MAX_STRING;
  case NBD_REP_META_CONTEXT: return 4 + NBD_MAX_STRING;
  }
  return NBD_MAX_STRING;        /* unknown: refused once read */
}

/* Decode a chunk header and match its command.  Every length is
 * checked here, before any byte of the payload is read: one longer
 * than its type allows for this command (or than we would skip) means
 * the stream cannot be trusted, and we will not wait for its bytes.
 * -1: error set, the handle dies.
 */
/* Decode the chunk header, compact or extended, into h->chunk_*;
 * returns the cookie and the 64-bit length.  An extended chunk must
 * carry its request's offset.
 */
static uint64_t
decode_chunk_header (struct nbd_handle *h, uint64_t *len)
{
  const struct nbd_structured_reply *s = &h->sbuf.structured;
  const struct nbd_extended_reply *x = &h->sbuf.extended;

  h->chunk_offset_wrong = false;
  if (!h->extended_headers) {
    h->chunk_flags = be16toh (s->flags);
    h->chunk_type = be16toh (s->type);
    *len = be32toh (s->length);
    return be64toh (s->cookie);
  }
  h->chunk_flags = be16toh (x->flags);
  h->chunk_type = be16toh (x->type);
  *len = be64toh (x->length);
  h->reply_offset = be64toh (x->offset);
  return be64toh (x->cookie);
}

/* Decode a chunk header and match its command.  Every length is
 * checked here, before any byte of the payload is read: one longer
 * than its type allows for this command (or than we would skip) means
 * the stream cannot be trusted, and we will not wait for its bytes.
 * -1: error set, the handle dies.
 */
int
nbd_internal_chunk_start (struct nbd_handle *h)
{
  uint64_t len, cookie = decode_chunk_header (h, &len);
  struct command *cmd;
  int64_t max;

  STAT_ADD (h, chunks_received, 1);
  if (nbd_internal_reply_command (h, cookie, &cmd) == -1)
    return -1;
  h->reply_cmd = cmd;
  max = chunk_max (cmd, h->chunk_type, h->extended_headers);
  if (len > (uint64_t) (max >= 0 ? max : MAX_SKIP)) {
    set_error (EPROTO, "reply chunk of type %" PRIu16 " and %" PRIu64
               " bytes is too long%s", h->chunk_type, len,
               cmd ? " for its command" : "");
    return -1;
  }
  h->chunk_length = len;
  if (cmd && h->extended_headers && h->reply_offset != cmd->offset) {
    debug (h, "reply chunk offset %" PRIu64 " is not the request's %"
           PRIu64, h->reply_offset, cmd->offset);
    h->chunk_offset_wrong = true;
  }
  if (cmd == NULL)
    debug (h, "skipping a reply chunk for the unknown cookie %" PRIu64,
           cookie);
  return 0;
}

/* A chunk that cannot be used: for no command, of a type the command
 * does not take, or too short for its type's fields.  (NONE is only
 * usable as a bare DONE.)
 */
static bool
chunk_unusable (struct nbd_handle *h, const struct command *cmd,
                uint16_t type, uint32_t len)
{
  if (cmd == NULL || h->chunk_offset_wrong ||
      chunk_max (cmd, type, h->extended_headers) == -1)
    return true;
  switch (type) {
  case NBD_REPLY_TYPE_NONE: return true;
  case NBD_REPLY_TYPE_OFFSET_DATA: return len < 8;  /* 8: empty, as libnbd */
  case NBD_REPLY_TYPE_OFFSET_HOLE: return len != 12;
  case NBD_REPLY_TYPE_BLOCK_STATUS: return len < 12 || (len - 4) % 8 != 0;
  case NBD_REPLY_TYPE_BLOCK_STATUS_EXT:
    return len < 24 || (len - 8) % 16 != 0;
  }
  return len < 6;               /* an error: errno and message length */
}

/* What the chunk holds, with h->rbuf and h->rlen aimed at where to
 * read it.  Chunks that don't fit their command are skipped and fail
 * the command (a chunk for no command is skipped alone).
 */
enum chunk_kind
nbd_internal_chunk_next (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  uint32_t len = h->chunk_length;
  uint16_t type = h->chunk_type;

  h->rbuf = NULL;
  h->rlen = len;
  if (type == NBD_REPLY_TYPE_NONE && len == 0 && cmd &&
      !h->chunk_offset_wrong && (h->chunk_flags & NBD_REPLY_FLAG_DONE))
    return CHUNK_DONE;
  if (chunk_unusable (h, cmd, type, len)) {
    debug (h, "skipping a malformed chunk of type %" PRIu16
           " and length %" PRIu32, type, len);
    if (cmd)
      fail_cmd (cmd, EPROTO);
    return len ? CHUNK_SKIP : CHUNK_DONE;
  }
  if (type == NBD_REPLY_TYPE_OFFSET_DATA ||
      type == NBD_REPLY_TYPE_OFFSET_HOLE) {
    h->rbuf = &h->chunk_head;
    h->rlen = type == NBD_REPLY_TYPE_OFFSET_HOLE
      ? sizeof h->chunk_head : sizeof h->chunk_head.offset;
    return type == NBD_REPLY_TYPE_OFFSET_HOLE ? CHUNK_HOLE : CHUNK_DATA;
  }
  h->chunk_payload = malloc (len);
  if (h->chunk_payload == NULL) {
    fail_cmd (cmd, ENOMEM);
    return CHUNK_SKIP;
  }
  h->rbuf = h->chunk_payload;
  return CHUNK_PAYLOAD;
}

/* Record that a chunk covered [REL, REL+LEN) of CMD's buffer.  Chunks
 * adding up to more than the request are still placed and passed to
 * the chunk callback with no error yet, as libnbd does: the read fails
 * (EPROTO) when done, its bytes not covered exactly once.  -1 if there
 * is no memory to record it (the command failed).
 */
static int
record_chunk (struct nbd_handle *h, struct command *cmd, uint64_t rel,
              uint64_t len)
{
  int r = nbd_internal_range_add (&cmd->seen, rel, rel + len, cmd->count);

  if (r == 1) {                 /* it fails when done (finish_command) */
    debug (h, "chunks add up to more than the request");
    r = nbd_internal_range_add (&cmd->seen, rel, rel + len, UINT64_MAX);
  }
  if (r == -1) {
    fail_cmd (cmd, ENOMEM);
    return -1;
  }
  return 0;
}

/* Check a data chunk's range and aim h->rbuf at its place in the
 * caller's buffer.  Returns NULL, or why the chunk must be skipped.
 */
const char *
nbd_internal_chunk_place_data (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  uint64_t offset = be64toh (h->chunk_head.offset);
  uint64_t len = h->chunk_length - sizeof h->chunk_head.offset;
  uint64_t rel;

  if (offset < cmd->offset || offset - cmd->offset > cmd->count ||
      len > cmd->count - (offset - cmd->offset))
    return "data chunk outside the request";
  rel = offset - cmd->offset;
  if (len > 0 && record_chunk (h, cmd, rel, len) == -1)
    return "out of memory";
  h->rbuf = (char *) cmd->data + rel;
  h->rlen = len;
  h->chunk_data_offset = rel;
  h->chunk_data_count = len;
  return NULL;
}

/* Tell a pread_structured callback about data or a hole. */
static void
call_chunk (struct command *cmd, uint64_t rel, uint64_t count,
            unsigned status)
{
  int err = cmd->error;

  if (cmd->cb.kind != CB_CHUNK || cmd->cb.fn.chunk.callback == NULL)
    return;
  if (CALL_CALLBACK (cmd->cb.fn.chunk, (char *) cmd->data + rel, count,
                     cmd->offset + rel, status, &err) == -1)
    fail_cmd (cmd, err ? err : EPROTO);
}

/* A simple reply's data covers the whole read: record it, as a data
 * chunk's range is, before it arrives, and aim h->rbuf at the buffer.
 * -1 (error set): no memory to record it.
 */
int
nbd_internal_simple_read_place (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;

  if (nbd_internal_range_add (&cmd->seen, 0, cmd->count, cmd->count) == -1) {
    set_error (errno, "recording a read's reply");
    return -1;
  }
  h->rbuf = cmd->data;
  h->rlen = cmd->count;
  return 0;
}

/* Data landed in the buffer. */
void
nbd_internal_read_data_arrived (struct nbd_handle *h, struct command *cmd,
                                uint64_t rel, uint64_t count)
{
  call_chunk (cmd, rel, count, LIBNBD_READ_DATA);
}

void
nbd_internal_chunk_hole (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  uint64_t offset = be64toh (h->chunk_head.offset);
  uint64_t len = be32toh (h->chunk_head.length), rel;

  if (len == 0 || offset < cmd->offset ||
      offset - cmd->offset > cmd->count ||
      len > cmd->count - (offset - cmd->offset)) {
    debug (h, "hole chunk outside the request");
    fail_cmd (cmd, EPROTO);
    return;
  }
  rel = offset - cmd->offset;
  if (record_chunk (h, cmd, rel, len) == -1)
    return;
  /* A buffer cleared by the call already holds the hole's zeroes: as
   * in libnbd, a hole then leaves any data already received.
   */
  if (!cmd->initialized)
    memset ((char *) cmd->data + rel, 0, len);
  call_chunk (cmd, rel, len, LIBNBD_READ_HOLE);
}

static const char *
meta_context_name (struct nbd_handle *h, uint32_t id)
{
  size_t i;

  for (i = 0; i < h->meta_contexts.len; ++i)
    if (h->meta_contexts.ptr[i].context_id == id)
      return h->meta_contexts.ptr[i].name;
  return NULL;
}

/* Whether SET_META_CONTEXT already gave NAME or ID. */
bool
nbd_internal_meta_context_recorded (struct nbd_handle *h, const char *name,
                                    uint32_t id)
{
  size_t i;

  for (i = 0; i < h->meta_contexts.len; ++i)
    if (h->meta_contexts.ptr[i].context_id == id ||
        strcmp (h->meta_contexts.ptr[i].name, name) == 0) {
      debug (h, "ignoring meta context %s (id %" PRIu32 "), given twice",
             name, id);
      return true;
    }
  return false;
}

/* No empty extents, and none past the end of the export. */
static bool
extents_valid (struct nbd_handle *h, const struct command *cmd,
               const uint32_t *entries, size_t n)
{
  uint64_t room = cmd->offset < h->exportsize
    ? h->exportsize - cmd->offset : 0;
  size_t i;

  for (i = 0; i < n; ++i) {
    if (entries[2 * i] == 0 || entries[2 * i] > room)
      return false;
    room -= entries[2 * i];
  }
  return true;
}

/* Pass the extents to the 32- or 64-bit callback, in host order. */
void
nbd_internal_chunk_block_status (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  uint32_t *raw = (uint32_t *) h->chunk_payload;
  size_t i, n = (h->chunk_length - 4) / 8;
  const char *name = meta_context_name (h, be32toh (raw[0]));
  uint32_t *entries = raw + 1;
  int err = 0, r = 0;

  if (name == NULL) {
    debug (h, "block status for an unknown meta context id");
    fail_cmd (cmd, EPROTO);
    return;
  }
  for (i = 0; i < 2 * n; ++i)
    entries[i] = be32toh (entries[i]);
  if (!extents_valid (h, cmd, entries, n)) {
    debug (h, "block status extent empty or past the end");
    fail_cmd (cmd, EPROTO);
    return;
  }
  if ((cmd->flags & NBD_CMD_FLAG_REQ_ONE) && n != 1)
    debug (h, "server sent %zu extents despite REQ_ONE", n);
  if (cmd->cb.kind == CB_EXTENT && cmd->cb.fn.extent.callback)
    r = CALL_CALLBACK (cmd->cb.fn.extent, name, cmd->offset, entries, 2 * n,
                       &err);
  else if (cmd->cb.kind == CB_EXTENT64 && cmd->cb.fn.extent64.callback) {
    nbd_extent *e = malloc (n * sizeof *e);
    if (e == NULL) {
      fail_cmd (cmd, ENOMEM);
      return;
    }
    for (i = 0; i < n; ++i) {
      e[i].length = entries[2 * i];
      e[i].flags = entries[2 * i + 1];
    }
    r = CALL_CALLBACK (cmd->cb.fn.extent64, name, cmd->offset, e, n, &err);
    free (e);
  }
  cmd->extents_seen = true;
  if (r == -1)
    fail_cmd (cmd, err ? err : EPROTO);
}

/* No empty 64-bit extents, and none past the end of the export. */
static bool
extents64_valid (struct nbd_handle *h, const struct command *cmd,
                 const nbd_extent *e, size_t n)
{
  uint64_t room = cmd->offset < h->exportsize
    ? h->exportsize - cmd->offset : 0;
  size_t i;

  for (i = 0; i < n; ++i) {
    if (e[i].length == 0 || e[i].length > room)
      return false;
    room -= e[i].length;
  }
  return true;
}

/* Narrow 64-bit extents for a 32-bit callback, as libnbd 1.22 does:
 * stop at an extent longer than 32 bits (passed cut to 4 GiB - 64 MiB,
 * a multiple of any block size), or at flags wider than 32 bits (that
 * extent left out, unless it is the first: then it is passed with its
 * flags cut, and the command fails with EOVERFLOW).  Fills OUT with
 * length, flags pairs and returns how many uint32_t it wrote.
 */
static size_t
narrow_extents (struct command *cmd, const nbd_extent *e, size_t n,
                uint32_t *out)
{
  size_t i;

  for (i = 0; i < n; ++i) {
    uint64_t len = e[i].length;
    bool stop = false;

    if (e[i].flags > UINT32_MAX) {
      if (i > 0)
        break;
      fail_cmd (cmd, EOVERFLOW);
      stop = true;
    }
    if (len > UINT32_MAX) {
      len = (uint32_t) -MAX_REQUEST_SIZE;
      stop = true;
    }
    out[2 * i] = len;
    out[2 * i + 1] = (uint32_t) e[i].flags;
    if (stop)
      return 2 * (i + 1);
  }
  return 2 * i;
}

/* Pass 64-bit extents to the command's callback, whichever it is. */
static void
call_extents64 (struct command *cmd, const char *name, const nbd_extent *e,
                size_t n)
{
  int err = cmd->error, r = 0;

  if (cmd->cb.kind == CB_EXTENT64 && cmd->cb.fn.extent64.callback)
    r = CALL_CALLBACK (cmd->cb.fn.extent64, name, cmd->offset,
                       (nbd_extent *) e, n, &err);
  else if (cmd->cb.kind == CB_EXTENT && cmd->cb.fn.extent.callback) {
    uint32_t *narrow = malloc (2 * n * sizeof *narrow);
    size_t m;

    if (narrow == NULL) {
      fail_cmd (cmd, ENOMEM);
      return;
    }
    m = narrow_extents (cmd, e, n, narrow);
    err = cmd->error;
    r = CALL_CALLBACK (cmd->cb.fn.extent, name, cmd->offset, narrow, m,
                       &err);
    free (narrow);
  }
  cmd->extents_seen = true;
  if (r == -1)
    fail_cmd (cmd, err ? err : EPROTO);
}

/* NBD_REPLY_TYPE_BLOCK_STATUS_EXT: context id, descriptor count (which
 * must be what the payload holds), then 64-bit length and flags pairs.
 */
void
nbd_internal_chunk_block_status_ext (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  const char *p = h->chunk_payload;
  size_t i, n = (h->chunk_length - 8) / 16;
  uint32_t id, count;
  const char *name;
  nbd_extent *e;

  memcpy (&id, p, 4);
  memcpy (&count, p + 4, 4);
  name = meta_context_name (h, be32toh (id));
  if (name == NULL || be32toh (count) != n) {
    debug (h, "block status for an unknown meta context id, or a "
           "descriptor count (%" PRIu32 ") not what the chunk holds (%zu)",
           be32toh (count), n);
    fail_cmd (cmd, EPROTO);
    return;
  }
  e = malloc (n * sizeof *e);
  if (e == NULL) {
    fail_cmd (cmd, ENOMEM);
    return;
  }
  for (i = 0; i < n; ++i) {
    uint64_t pair[2];
    memcpy (pair, p + 8 + 16 * i, 16);
    e[i].length = be64toh (pair[0]);
    e[i].flags = be64toh (pair[1]);
  }
  if (!extents64_valid (h, cmd, e, n)) {
    debug (h, "block status extent empty or past the end");
    fail_cmd (cmd, EPROTO);
  }
  else {
    if ((cmd->flags & NBD_CMD_FLAG_REQ_ONE) && n != 1)
      debug (h, "server sent %zu extents despite REQ_ONE", n);
    call_extents64 (cmd, name, e, n);
  }
  free (e);
}

/* An ERROR_OFFSET chunk names a byte of the read: tell the chunk
 * callback, which may replace the error the command fails with.
 */
static void
call_chunk_error (struct nbd_handle *h, struct command *cmd,
                  uint64_t offset, int err)
{
  int scratch = err;

  if (offset < cmd->offset || offset - cmd->offset >= cmd->count) {
    debug (h, "error offset %" PRIu64 " outside the request", offset);
    return;
  }
  if (cmd->type != NBD_CMD_READ || cmd->cb.kind != CB_CHUNK ||
      cmd->cb.fn.chunk.callback == NULL)
    return;
  if (CALL_CALLBACK (cmd->cb.fn.chunk,
                     (char *) cmd->data + (offset - cmd->offset), 0,
                     offset, LIBNBD_READ_ERROR, &scratch) == -1)
    fail_cmd (cmd, scratch);
}

/* An error chunk: the command fails with the server's errno (EPROTO if
 * it sent none).  A message that does not fit, or an offset that isn't
 * exactly 8 bytes, is ignored: the server's errno is still the best
 * account of what went wrong.
 */
void
nbd_internal_chunk_error (struct nbd_handle *h)
{
  struct command *cmd = h->reply_cmd;
  const char *p = h->chunk_payload;
  uint32_t error, len = h->chunk_length;
  uint16_t msglen;
  uint64_t offset;
  int err;

  memcpy (&error, p, 4);
  memcpy (&msglen, p + 4, 2);
  error = be32toh (error);
  msglen = be16toh (msglen);
  err = error ? nbd_internal_errno_of_nbd_error (error) : EPROTO;
  if (6 + (uint32_t) msglen > len) {
    debug (h, "error chunk message longer than the chunk");
    fail_cmd (cmd, err);
    return;
  }
  if (msglen > 0) {
    char *msg = strndup (p + 6, msglen);
    char *safe = msg ? nbd_internal_printable_string (msg) : NULL;
    debug (h, "server error %" PRIu32 ": %s", error, safe ? safe : "");
    free (safe);
    free (msg);
  }
  if (h->chunk_type == NBD_REPLY_TYPE_ERROR_OFFSET) {
    if (len - 6 - msglen == 8) {
      memcpy (&offset, p + 6 + msglen, 8);
      call_chunk_error (h, cmd, be64toh (offset), err);
    }
    else
      debug (h, "error offset of %" PRIu32 " bytes ignored",
             len - 6 - msglen);
  }
  fail_cmd (cmd, err);
}
