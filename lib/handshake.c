/* handshake.c: sending options and decoding their replies, and the
 * export facts the handshake learns.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

static int set_block_size (struct nbd_handle *h, uint32_t min,
                           uint32_t pref, uint32_t max);

/* Send the option that nbd_internal_opt_send prepared in h->wbuf;
 * once it is through, get ready to read its reply.  Returns 0 sent,
 * 1 would block, -1 error (set): the state body chooses where to go.
 */
int
nbd_internal_opt_write (struct nbd_handle *h)
{
  int r = nbd_internal_send_handshake (h);

  if (r == 0)
    nbd_internal_opt_expect_reply (h);
  return r;
}

/* Prepare h->wbuf: the option header followed by PAYLOAD (copied). */
int
nbd_internal_opt_send (struct nbd_handle *h, uint32_t option,
                       const void *payload, size_t len)
{
  struct nbd_new_option opt;
  char *buf = malloc (sizeof opt + len);

  if (buf == NULL) {
    set_error (errno, "malloc");
    return -1;
  }
  opt.version = htobe64 (NBD_NEW_VERSION);
  opt.option = htobe32 (option);
  opt.optlen = htobe32 (len);
  memcpy (buf, &opt, sizeof opt);
  if (len)
    memcpy (buf + sizeof opt, payload, len);
  free (h->wscratch);
  h->wscratch = buf;
  h->wbuf = buf;
  h->wlen = sizeof opt + len;
  h->wflags = 0;
  h->opt_current = option;
  /* As libnbd 1.22 counts them: each option is one chunk sent. */
  STAT_ADD (h, chunks_sent, 1);
  debug (h, "sending option %" PRIu32 " with %zu bytes", option, len);
  return 0;
}

void
nbd_internal_opt_expect_reply (struct nbd_handle *h)
{
  free (h->opt_payload);
  h->opt_payload = NULL;
  h->rbuf = &h->opt_reply;
  h->rlen = sizeof h->opt_reply;
}

/* Read the reply header, then its payload into h->opt_payload (NUL
 * terminated for convenience).  0 done, 1 would block, -1 error.
 */
int
nbd_internal_opt_recv_reply (struct nbd_handle *h)
{
  uint32_t len;
  int r;

  for (;;) {
    r = nbd_internal_recv_handshake (h);
    if (r != 0 || h->opt_payload != NULL)
      return r;
    if (be64toh (h->opt_reply.magic) != NBD_REP_MAGIC ||
        be32toh (h->opt_reply.option) != h->opt_current) {
      set_error (0, "handshake: invalid option reply magic or option");
      return -1;
    }
    len = be32toh (h->opt_reply.replylen);
    /* Longer than its type allows: a broken or hostile server. */
    if (len > nbd_internal_opt_reply_max (be32toh (h->opt_reply.reply))) {
      set_error (0, "handshake: option reply payload too large "
                 "(%" PRIu32 " bytes)", len);
      return -1;
    }
    h->opt_payload = malloc (len + 1);
    if (h->opt_payload == NULL) {
      set_error (errno, "malloc");
      return -1;
    }
    h->opt_payload[len] = '\0';
    h->rbuf = h->opt_payload;
    h->rlen = len;
  }
}

/* An option error reply in libnbd's words, and its errno there (0
 * where libnbd gives none).
 */
static const char *
opt_reply_words (uint32_t reply, int *err)
{
  *err = 0;
  switch (reply) {
  case NBD_REP_ERR_UNSUP:
    *err = ENOTSUP;
    return "the operation is not supported by the server";
  case NBD_REP_ERR_POLICY:
    return "server policy prevents the operation";
  case NBD_REP_ERR_PLATFORM:
    return "the operation is not supported by the server platform";
  case NBD_REP_ERR_INVALID:
    *err = EINVAL;
    return "the server rejected this operation as invalid";
  case NBD_REP_ERR_TOO_BIG:
    *err = EINVAL;
    return "the operation is too large to process";
  case NBD_REP_ERR_TLS_REQD:
    *err = ENOTSUP;
    return "the server requires TLS encryption first";
  case NBD_REP_ERR_UNKNOWN:
    *err = ENOENT;
    return "the server has no export named";
  case NBD_REP_ERR_SHUTDOWN:
    *err = ESHUTDOWN;
    return "the server is shutting down";
  case NBD_REP_ERR_BLOCK_SIZE_REQD:
    *err = EINVAL;
    return "the server requires specific block sizes";
  }
  return NULL;
}

/* The errno of a refused NBD_OPT_GO or NBD_OPT_INFO, for its
 * completion: libnbd's, or ENOTSUP where libnbd's words carry none.
 */
int
nbd_internal_opt_reply_errno (uint32_t reply)
{
  int err;

  (void) opt_reply_words (reply, &err);
  return err ? err : ENOTSUP;
}

/* The server's message, non-printable bytes as \xNN (libnbd's way). */
static char *
quote_server_message (const char *msg, uint32_t len)
{
  char *r = malloc ((size_t) len * 4 + 1), *p = r;
  uint32_t i;

  if (r == NULL)
    return NULL;
  for (i = 0; i < len; ++i) {
    unsigned char c = msg[i];
    if (c >= 0x20 && c < 0x7f)
      *p++ = c;
    else
      p += sprintf (p, "\\x%02x", c);
  }
  *p = '\0';
  return r;
}

/* Set the error of a refused NBD_OPT_GO or NBD_OPT_INFO (REPLY), as
 * libnbd words and numbers it, with the server's message.
 */
void
nbd_internal_set_opt_reply_error (struct nbd_handle *h, uint32_t reply)
{
  uint32_t len = h->opt_payload ? be32toh (h->opt_reply.replylen) : 0;
  char *msg = len ? quote_server_message (h->opt_payload, len) : NULL;
  const char *sep = msg ? ": " : "", *m = msg ? msg : "";
  int err;
  const char *words = opt_reply_words (reply, &err);

  if (words == NULL)
    set_error (0, "handshake: unknown reply from the server: 0x%" PRIx32
               "%s%s", reply, sep, m);
  else if (reply == NBD_REP_ERR_UNKNOWN)
    set_error (err, "%s '%s'%s%s", words, h->export_name, sep, m);
  else
    set_error (err, "%s%s%s", words, sep, m);
  free (msg);
}

static uint16_t
get_u16 (const char *p)
{
  uint16_t v;
  memcpy (&v, p, sizeof v);
  return be16toh (v);
}

static uint32_t
get_u32 (const char *p)
{
  uint32_t v;
  memcpy (&v, p, sizeof v);
  return be32toh (v);
}

static uint64_t
get_u64 (const char *p)
{
  uint64_t v;
  memcpy (&v, p, sizeof v);
  return be64toh (v);
}

/* A copy of LEN bytes at P as a string, or NULL with the error set. */
static char *
dup_field (const char *p, size_t len)
{
  char *s = strndup (p, len);

  if (s == NULL)
    set_error (errno, "strndup");
  return s;
}

/* NBD_REP_INFO in reply to GO or INFO. */
int
nbd_internal_opt_info_reply (struct nbd_handle *h)
{
  const char *p = h->opt_payload;
  uint32_t len = be32toh (h->opt_reply.replylen);
  char **field;

  if (len < 2)
    goto bad;
  switch (get_u16 (p)) {
  case NBD_INFO_EXPORT:
    if (len != 12)
      goto bad;
    return nbd_internal_set_size_and_flags (h, get_u64 (p + 2),
                                            get_u16 (p + 10));
  case NBD_INFO_BLOCK_SIZE:
    if (len != 14)
      goto bad;
    return set_block_size (h, get_u32 (p + 2), get_u32 (p + 6),
                                        get_u32 (p + 10));
  case NBD_INFO_NAME:
  case NBD_INFO_DESCRIPTION:
    field = get_u16 (p) == NBD_INFO_NAME
      ? &h->canonical_name : &h->description;
    free (*field);
    *field = dup_field (p + 2, len - 2);
    return *field ? 0 : -1;
  default:
    debug (h, "ignoring unknown info %u", get_u16 (p));
    return 0;
  }
 bad:
  set_error (0, "handshake: malformed NBD_REP_INFO");
  return -1;
}

/* Did the SET_META_CONTEXT being answered ask for NAME?  A query that
 * ends in ':' asks for its whole namespace.
 */
static bool
meta_context_requested (struct nbd_handle *h, const char *name)
{
  const struct string_vector *q = &h->request_meta_contexts;
  size_t i;

  if (h->opt.option == NBD_OPT_SET_META_CONTEXT && h->opt_queries_set)
    q = &h->opt_queries;
  for (i = 0; i < q->len; ++i) {
    size_t n = strlen (q->ptr[i]);
    if (strcmp (q->ptr[i], name) == 0 ||
        (n > 0 && q->ptr[i][n - 1] == ':' &&
         strncmp (q->ptr[i], name, n) == 0))
      return true;
  }
  return false;
}

/* NBD_REP_META_CONTEXT: record it (SET) and tell the callback. */
int
nbd_internal_opt_meta_context_reply (struct nbd_handle *h)
{
  uint32_t len = be32toh (h->opt_reply.replylen);
  struct meta_vector *v = &h->meta_contexts;
  char *name;

  if (len < 4) {
    set_error (0, "handshake: malformed NBD_REP_META_CONTEXT");
    return -1;
  }
  name = dup_field (h->opt_payload + 4, len - 4);
  if (name == NULL)
    return -1;
  if (be32toh (h->opt_reply.option) == NBD_OPT_SET_META_CONTEXT &&
      !meta_context_requested (h, name)) {
    debug (h, "ignoring meta context %s, which was not requested", name);
    free (name);
    return 0;
  }
  debug (h, "meta context %s", name);
  h->opt_count++;
  if (h->opt.fn.context.callback)
    CALL_CALLBACK (h->opt.fn.context, name);
  /* Only SET records; a name or id given again is ignored, so the
   * contexts block status chunks are looked up in stay few.
   */
  if (be32toh (h->opt_reply.option) != NBD_OPT_SET_META_CONTEXT ||
      nbd_internal_meta_context_recorded (h, name,
                                          get_u32 (h->opt_payload))) {
    free (name);
    return 0;
  }
  if (v->len == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 4;
    struct meta_context *p = realloc (v->ptr, cap * sizeof *p);
    if (p == NULL) {
      set_error (errno, "realloc");
      free (name);
      return -1;
    }
    v->ptr = p;
    v->cap = cap;
  }
  v->ptr[v->len].name = name;
  v->ptr[v->len++].context_id = get_u32 (h->opt_payload);
  return 0;
}

/* NBD_REP_SERVER in reply to LIST: name, then description. */
int
nbd_internal_opt_server_reply (struct nbd_handle *h)
{
  uint32_t len = be32toh (h->opt_reply.replylen), namelen;
  char *name, *desc;

  if (len < 4 || (namelen = get_u32 (h->opt_payload)) > len - 4) {
    set_error (0, "invalid export length");      /* libnbd's words */
    return -1;
  }
  name = dup_field (h->opt_payload + 4, namelen);
  desc = dup_field (h->opt_payload + 4 + namelen, len - 4 - namelen);
  if (name && desc) {
    h->opt_count++;
    if (h->opt.fn.list.callback)
      CALL_CALLBACK (h->opt.fn.list, name, desc);
  }
  free (name);
  free (desc);
  return name && desc ? 0 : -1;
}

/* Forget the export: before each NBD_OPT_INFO or GO, after a refusal,
 * and when TLS starts.  Its names go too: a later reply may not carry
 * them.
 */
void
nbd_internal_reset_size_and_flags (struct nbd_handle *h)
{
  h->eflags_valid = false;
  h->exportsize = 0;
  h->eflags = 0;
  h->block_minimum = h->block_preferred = h->block_maximum = 0;
  free (h->canonical_name);
  h->canonical_name = NULL;
  free (h->description);
  h->description = NULL;
}

/* Record the export's size and flags; refuse what we cannot use. */
int
nbd_internal_set_size_and_flags (struct nbd_handle *h, uint64_t exportsize,
                                 uint16_t eflags)
{
  debug (h, "export size %" PRIu64 ", flags 0x%" PRIx16, exportsize, eflags);
  if (exportsize > INT64_MAX) {
    set_error (EOVERFLOW, "handshake: export size %" PRIu64
               " is larger than the largest size libnbd can handle",
               exportsize);
    return -1;
  }
  if (!(eflags & NBD_FLAG_HAS_FLAGS)) {
    debug (h, "server did not set NBD_FLAG_HAS_FLAGS: ignoring the flags");
    eflags = 0;
  }
  /* Fast zero only means something when write zeroes exists. */
  if (!(eflags & NBD_FLAG_SEND_WRITE_ZEROES))
    eflags &= ~NBD_FLAG_SEND_FAST_ZERO;
  /* No SET_META_CONTEXT was due: the empty set is the agreed one. */
  if (h->request_meta &&
      (!h->structured_replies || h->request_meta_contexts.len == 0))
    h->meta_valid = true;
  h->exportsize = exportsize;
  h->eflags = eflags;
  h->eflags_valid = true;
  return 0;
}

/* Block sizes must be powers of two with min <= pref <= max. */
static int
set_block_size (struct nbd_handle *h, uint32_t min,
                uint32_t pref, uint32_t max)
{
  debug (h, "block sizes %" PRIu32 " %" PRIu32 " %" PRIu32, min, pref, max);
  if (min == 0 || (min & (min - 1)) || min > 64 * 1024 ||
      pref < min || (pref & (pref - 1)) || max < pref ||
      (max != UINT32_MAX && max % min)) {
    debug (h, "ignoring invalid block sizes from the server");
    return 0;
  }
  h->block_minimum = min;
  h->block_preferred = pref;
  h->block_maximum = max;
  return 0;
}

/* The answer to NBD_OPT_STRUCTURED_REPLY: 0 when agreed, the errno of
 * a refusal (EINVAL for NBD_REP_ERR_INVALID or, once extended headers
 * are on, NBD_REP_ERR_EXT_HEADER_REQD; else ENOTSUP, as libnbd 1.22),
 * or -1 (error set) for a reply that is neither.  A refusal leaves
 * structured replies as they were: a repeat or a downgrade is refused.
 */
int
nbd_internal_structured_reply_reply (struct nbd_handle *h, uint32_t reply)
{
  if (reply == NBD_REP_ACK) {
    debug (h, "negotiated structured replies on this connection");
    h->structured_replies = true;
    return 0;
  }
  if (!NBD_REP_IS_ERR (reply)) {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to NBD_OPT_STRUCTURED_REPLY", reply);
    return -1;
  }
  debug (h, "server refused structured replies (reply 0x%" PRIx32 ")",
         reply);
  if (reply == NBD_REP_ERR_INVALID || reply == NBD_REP_ERR_EXT_HEADER_REQD)
    return EINVAL;
  return ENOTSUP;
}

/* The answer to NBD_OPT_EXTENDED_HEADERS: 0 when agreed (structured
 * replies come with them), the errno of a refusal (EINVAL for
 * NBD_REP_ERR_INVALID, else ENOTSUP, as libnbd 1.22), or -1 (error
 * set) for a reply that is neither.
 */
int
nbd_internal_extended_headers_reply (struct nbd_handle *h, uint32_t reply)
{
  if (reply == NBD_REP_ACK) {
    debug (h, "negotiated extended headers on this connection");
    h->extended_headers = true;
    h->structured_replies = true;
    return 0;
  }
  if (!NBD_REP_IS_ERR (reply)) {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to NBD_OPT_EXTENDED_HEADERS", reply);
    return -1;
  }
  debug (h, "server refused extended headers (reply 0x%" PRIx32 ")", reply);
  return reply == NBD_REP_ERR_INVALID ? EINVAL : ENOTSUP;
}
