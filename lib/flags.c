/* flags.c: what the server said about the export. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/* Facts exist once GO/INFO/EXPORT_NAME or oldstyle gave them. */
static int
need_export (struct nbd_handle *h)
{
  if (!h->eflags_valid) {
    set_error (EINVAL, "server has not returned export flags, "
               "you need to connect to the server first");
    return -1;
  }
  return 0;
}

static int
get_flag (struct nbd_handle *h, uint16_t flag)
{
  if (need_export (h) == -1)
    return -1;
  return (h->eflags & flag) != 0;
}

int nbd_unlocked_is_read_only (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_READ_ONLY); }
int nbd_unlocked_can_flush (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_FLUSH); }
int nbd_unlocked_can_fua (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_FUA); }
int nbd_unlocked_is_rotational (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_ROTATIONAL); }
int nbd_unlocked_can_trim (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_TRIM); }
int nbd_unlocked_can_zero (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_WRITE_ZEROES); }
int nbd_unlocked_can_fast_zero (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_FAST_ZERO); }
int nbd_unlocked_can_df (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_DF); }
int nbd_unlocked_can_multi_conn (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_CAN_MULTI_CONN); }
int nbd_unlocked_can_cache (struct nbd_handle *h)
{ return get_flag (h, NBD_FLAG_SEND_CACHE); }

int
nbd_unlocked_can_block_status_payload (struct nbd_handle *h)
{
  if (need_export (h) == -1)
    return -1;
  /* The server's flag, as libnbd 1.22 reports it. */
  return (h->eflags & NBD_FLAG_BLOCK_STAT_PAYLOAD) != 0;
}

int
nbd_unlocked_can_meta_context (struct nbd_handle *h, const char *name)
{
  size_t i;

  /* Contexts were asked for but no SET_META_CONTEXT answered yet. */
  if (h->request_meta_contexts.len && !h->meta_valid) {
    set_error (EINVAL, "need a successful server meta context request "
               "first");
    return -1;
  }
  for (i = 0; i < h->meta_contexts.len; ++i)
    if (strcmp (h->meta_contexts.ptr[i].name, name) == 0)
      return 1;
  return 0;
}

int64_t
nbd_unlocked_get_size (struct nbd_handle *h)
{
  if (need_export (h) == -1)
    return -1;
  return h->exportsize;
}

/* The largest write payload we send.  The protocol lets a client
 * assume 32M when the server names no maximum, and at least 1M even if
 * its maximum is smaller; beyond 64M is more than we buffer.
 */
uint32_t
nbd_internal_payload_maximum (struct nbd_handle *h)
{
  uint32_t max = h->block_maximum;

  if (max == 0)
    return 32 * 1024 * 1024;
  if (max < 1024 * 1024)
    return 1024 * 1024;
  return max < MAX_REQUEST_SIZE ? max : MAX_REQUEST_SIZE;
}

int64_t
nbd_unlocked_get_block_size (struct nbd_handle *h, int type)
{
  if (need_export (h) == -1)
    return -1;
  switch (type) {
  case LIBNBD_SIZE_MINIMUM: return h->block_minimum;
  case LIBNBD_SIZE_PREFERRED: return h->block_preferred;
  case LIBNBD_SIZE_MAXIMUM: return h->block_maximum;
  case LIBNBD_SIZE_PAYLOAD:
    return nbd_internal_payload_maximum (h);
  }
  return 0;
}

const char *
nbd_unlocked_get_protocol (struct nbd_handle *h)
{
  switch (h->protocol) {
  case PROTOCOL_OLDSTYLE: return "oldstyle";
  case PROTOCOL_NEWSTYLE: return "newstyle";
  case PROTOCOL_NEWSTYLE_FIXED: return "newstyle-fixed";
  }
  set_error (EINVAL, "connection is not established yet");
  return NULL;
}

static char *
dup_or_error (const char *s, const char *what)
{
  char *r;

  if (s == NULL) {
    set_error (ENOTSUP, "server did not advertise %s", what);
    return NULL;
  }
  r = strdup (s);
  if (r == NULL)
    set_error (errno, "strdup");
  return r;
}

char *
nbd_unlocked_get_canonical_export_name (struct nbd_handle *h)
{
  if (need_export (h) == -1)
    return NULL;
  /* Only what the server said (NBD_INFO_NAME), as in libnbd. */
  return dup_or_error (h->canonical_name, "a canonical name");
}

char *
nbd_unlocked_get_export_description (struct nbd_handle *h)
{
  if (need_export (h) == -1)
    return NULL;
  return dup_or_error (h->description, "a description");
}

int
nbd_unlocked_get_structured_replies_negotiated (struct nbd_handle *h)
{
  return h->structured_replies;
}

int
nbd_unlocked_get_extended_headers_negotiated (struct nbd_handle *h)
{
  return h->extended_headers;
}

int
nbd_unlocked_get_tls_negotiated (struct nbd_handle *h)
{
  return h->tls_negotiated;
}
