/* rw.c: the data commands, synchronous and asynchronous. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/* Per-command checks of LIBNBD_STRICT_COMMANDS: what the server did
 * not offer.  Their order, and the range and size checks that follow
 * in nbd_internal_command_common, decide which errno a request failing
 * several checks gets: it is libnbd's order.
 */
static bool
commands_strict (struct nbd_handle *h)
{
  return (h->strict & LIBNBD_STRICT_COMMANDS) != 0;
}

static int
check_supported (struct nbd_handle *h, uint16_t eflag, const char *what)
{
  if (!(h->eflags & eflag)) {
    set_error (EINVAL, "server does not support %s operations", what);
    return -1;
  }
  return 0;
}

static int
check_writable (struct nbd_handle *h)
{
  if (h->eflags & NBD_FLAG_READ_ONLY) {
    set_error (EPERM, "server does not support write operations");
    return -1;
  }
  return 0;
}

static int
check_flag (struct nbd_handle *h, uint32_t flags, uint32_t flag,
            uint16_t eflag, const char *what)
{
  if ((flags & flag) && !(h->eflags & eflag)) {
    set_error (EINVAL, "server does not support the %s flag", what);
    return -1;
  }
  return 0;
}

/* Trim and zero: advertised, writable, FUA if asked. */
static int
check_write_like (struct nbd_handle *h, uint32_t flags, uint16_t eflag,
                  const char *what)
{
  if (!commands_strict (h))
    return 0;
  if (check_supported (h, eflag, what) == -1 || check_writable (h) == -1 ||
      check_flag (h, flags, LIBNBD_CMD_FLAG_FUA, NBD_FLAG_SEND_FUA,
                  "FUA") == -1)
    return -1;
  return 0;
}

/* PAYLOAD_LEN says a write carries its length in an extended header:
 * AUTO_FLAG sets it from what was negotiated, COMMANDS refuses a wrong
 * one.
 */
static int
write_payload_flag (struct nbd_handle *h, uint32_t *flags)
{
  if (h->strict & LIBNBD_STRICT_AUTO_FLAG) {
    if (h->extended_headers)
      *flags |= LIBNBD_CMD_FLAG_PAYLOAD_LEN;
    else
      *flags &= ~LIBNBD_CMD_FLAG_PAYLOAD_LEN;
  }
  if (commands_strict (h) &&
      !!(*flags & LIBNBD_CMD_FLAG_PAYLOAD_LEN) != h->extended_headers) {
    set_error (EINVAL, "incorrect setting for PAYLOAD_LEN flag");
    return -1;
  }
  return 0;
}

static struct command_cb
make_cb (nbd_completion_callback *completion)
{
  struct command_cb cb = { .kind = CB_NONE };

  TAKE_CALLBACK (cb.completion, completion);
  return cb;
}

int64_t
nbd_unlocked_aio_pread (struct nbd_handle *h, void *buf, size_t count,
                        uint64_t offset,
                        nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb = make_cb (completion);

  return nbd_internal_command_common (h, flags, NBD_CMD_READ, offset, count,
                                      EINVAL, buf, &cb);
}

int64_t
nbd_unlocked_aio_pread_structured (struct nbd_handle *h, void *buf,
                                   size_t count, uint64_t offset,
                                   nbd_chunk_callback *chunk,
                                   nbd_completion_callback *completion,
                                   uint32_t flags)
{
  struct command_cb cb;

  if (commands_strict (h) &&
      check_flag (h, flags, LIBNBD_CMD_FLAG_DF, NBD_FLAG_SEND_DF,
                  "DF") == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_CHUNK;
  TAKE_CALLBACK (cb.fn.chunk, chunk);
  return nbd_internal_command_common (h, flags, NBD_CMD_READ, offset, count,
                                      EINVAL, buf, &cb);
}

int64_t
nbd_unlocked_aio_pwrite (struct nbd_handle *h, const void *buf, size_t count,
                         uint64_t offset,
                         nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (commands_strict (h) &&
      (check_writable (h) == -1 ||
       check_flag (h, flags, LIBNBD_CMD_FLAG_FUA, NBD_FLAG_SEND_FUA,
                   "FUA") == -1))
    return -1;
  if (write_payload_flag (h, &flags) == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_WRITE, offset, count,
                                      ENOSPC, (void *) buf, &cb);
}

int64_t
nbd_unlocked_aio_flush (struct nbd_handle *h,
                        nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (commands_strict (h) &&
      check_supported (h, NBD_FLAG_SEND_FLUSH, "flush") == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_FLUSH, 0, 0, 0,
                                      NULL, &cb);
}

int64_t
nbd_unlocked_aio_trim (struct nbd_handle *h, uint64_t count, uint64_t offset,
                       nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_write_like (h, flags, NBD_FLAG_SEND_TRIM, "trim") == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_TRIM, offset, count,
                                      ENOSPC, NULL, &cb);
}

int64_t
nbd_unlocked_aio_cache (struct nbd_handle *h, uint64_t count, uint64_t offset,
                        nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (commands_strict (h) &&
      check_supported (h, NBD_FLAG_SEND_CACHE, "cache") == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_CACHE, offset, count,
                                      EINVAL, NULL, &cb);
}

int64_t
nbd_unlocked_aio_zero (struct nbd_handle *h, uint64_t count, uint64_t offset,
                       nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_write_like (h, flags, NBD_FLAG_SEND_WRITE_ZEROES, "zero") == -1)
    return -1;
  if (commands_strict (h) &&
      check_flag (h, flags, LIBNBD_CMD_FLAG_FAST_ZERO,
                  NBD_FLAG_SEND_FAST_ZERO, "fast zero") == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_WRITE_ZEROES, offset,
                                      count, ENOSPC, NULL, &cb);
}

/* Block status needs structured replies and a negotiated context. */
static int
check_block_status (struct nbd_handle *h)
{
  if (!commands_strict (h))
    return 0;
  if (!h->structured_replies) {
    set_error (ENOTSUP, "server does not support structured replies");
    return -1;
  }
  if (!h->meta_valid || h->meta_contexts.len == 0) {
    set_error (ENOTSUP, "did not negotiate any metadata contexts, "
               "either you did not call nbd_add_meta_context before "
               "connecting or the server does not support it");
    return -1;
  }
  return 0;
}

int64_t
nbd_unlocked_aio_block_status (struct nbd_handle *h, uint64_t count,
                               uint64_t offset, nbd_extent_callback *extent,
                               nbd_completion_callback *completion,
                               uint32_t flags)
{
  struct command_cb cb;

  if (check_block_status (h) == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_EXTENT;
  TAKE_CALLBACK (cb.fn.extent, extent);
  return nbd_internal_command_common (h, flags, NBD_CMD_BLOCK_STATUS, offset,
                                      count, EINVAL, NULL, &cb);
}

int64_t
nbd_unlocked_aio_block_status_64 (struct nbd_handle *h, uint64_t count,
                                  uint64_t offset,
                                  nbd_extent64_callback *extent64,
                                  nbd_completion_callback *completion,
                                  uint32_t flags)
{
  struct command_cb cb;

  if (check_block_status (h) == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_EXTENT64;
  TAKE_CALLBACK (cb.fn.extent64, extent64);
  return nbd_internal_command_common (h, flags, NBD_CMD_BLOCK_STATUS, offset,
                                      count, EINVAL, NULL, &cb);
}

/* The flags of a filtered block status, as nbd_set_strict_mode(3)
 * says: AUTO_FLAG sets PAYLOAD_LEN (and needs extended headers),
 * COMMANDS wants the server's payload flag and PAYLOAD_LEN set.
 */
static int
filter_flags (struct nbd_handle *h, uint32_t *flags)
{
  if (h->strict & LIBNBD_STRICT_AUTO_FLAG) {
    if (!h->extended_headers) {
      set_error (ENOTSUP, "server does not support extended headers");
      return -1;
    }
    *flags |= LIBNBD_CMD_FLAG_PAYLOAD_LEN;
  }
  if (commands_strict (h)) {
    if (!h->eflags_valid || !(h->eflags & NBD_FLAG_BLOCK_STAT_PAYLOAD)) {
      set_error (EINVAL,
                 "server does not support the block status payload flag");
      return -1;
    }
    if (!(*flags & LIBNBD_CMD_FLAG_PAYLOAD_LEN)) {
      set_error (EINVAL, "incorrect setting for PAYLOAD_LEN flag");
      return -1;
    }
  }
  /* Whatever the caller's flags, a payload can only travel in an
   * extended request that announces it: anything else would put the
   * stream out of step.
   */
  if (!h->extended_headers) {
    set_error (ENOTSUP, "server does not support extended headers");
    return -1;
  }
  *flags |= LIBNBD_CMD_FLAG_PAYLOAD_LEN;
  return 0;
}

/* The negotiated id of context NAME, or -1 (error set). */
static int64_t
context_id (struct nbd_handle *h, const char *name)
{
  size_t i;

  if (h->meta_valid)
    for (i = 0; i < h->meta_contexts.len; ++i)
      if (strcmp (h->meta_contexts.ptr[i].name, name) == 0)
        return h->meta_contexts.ptr[i].context_id;
  set_error (EINVAL, "context %s not negotiated", name);
  return -1;
}

/* The filter payload: the effect length COUNT, then each context's id,
 * big-endian.  NULL on error (set): an unknown context first, then a
 * payload too large, as libnbd 1.22 checks them.
 */
static char *
make_filter (struct nbd_handle *h, uint64_t count, char **contexts,
             uint32_t *len)
{
  size_t n, i;
  char *buf;

  for (n = 0; contexts[n]; ++n)
    if (context_id (h, contexts[n]) == -1)
      return NULL;
  if (8 + 4 * (uint64_t) n > MAX_REQUEST_SIZE ||
      ((h->strict & LIBNBD_STRICT_PAYLOAD) &&
       8 + 4 * (uint64_t) n > nbd_internal_payload_maximum (h))) {
    set_error (ERANGE, "filter set too large");
    return NULL;
  }
  *len = 8 + 4 * n;
  buf = malloc (*len);
  if (buf == NULL) {
    set_error (errno, "malloc");
    return NULL;
  }
  count = htobe64 (count);
  memcpy (buf, &count, 8);
  for (i = 0; i < n; ++i) {
    uint32_t be = htobe32 ((uint32_t) context_id (h, contexts[i]));
    memcpy (buf + 8 + 4 * i, &be, 4);
  }
  return buf;
}

int64_t
nbd_unlocked_aio_block_status_filter (struct nbd_handle *h, uint64_t count,
                                      uint64_t offset, char **contexts,
                                      nbd_extent64_callback *extent64,
                                      nbd_completion_callback *completion,
                                      uint32_t flags)
{
  struct command_cb cb;
  char *filter;
  uint32_t len;

  if (check_block_status (h) == -1 || filter_flags (h, &flags) == -1)
    return -1;
  filter = make_filter (h, count, contexts, &len);
  if (filter == NULL)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_EXTENT64;
  TAKE_CALLBACK (cb.fn.extent64, extent64);
  return nbd_internal_command_filtered (h, flags, offset, count, filter, len,
                                        &cb);
}

/* Let other threads' synchronous calls finish first (waiters.c); the
 * connection may end meanwhile.
 */
static int
check_can_disconnect (struct nbd_handle *h)
{
  if (h->disconnect_request || h->disconnect_waiting) {
    set_error (EINVAL, "cannot request more commands after NBD_CMD_DISC");
    return -1;
  }
  if (h->in_flight == h->aio_in_flight)
    return 0;
  if (nbd_internal_wait_sync_commands (h) == -1)
    return -1;
  if (!nbd_internal_is_state_ready (h->state) &&
      !nbd_internal_is_state_processing (h->state)) {
    set_error (EINVAL, "invalid state: %s: the handle must be connected "
               "with the server", nbd_internal_state_short_string (h->state));
    return -1;
  }
  return 0;
}

int
nbd_unlocked_aio_disconnect (struct nbd_handle *h, uint32_t flags)
{
  /* After any synchronous call another thread is waiting in. */
  if (check_can_disconnect (h) == -1)
    return -1;
  return nbd_internal_command_common (h, flags, NBD_CMD_DISC, 0, 0, 0, NULL,
                                      NULL) == -1 ? -1 : 0;
}

/* The synchronous calls: issue, then wait for that command. */

int
nbd_unlocked_pread (struct nbd_handle *h, void *buf, size_t count,
                    uint64_t offset, uint32_t flags)
{
  /* nbd_aio_pread, but zeroed late (see lib/commands.c). */
  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done
    (h, nbd_internal_command_read (h, flags, offset, count, buf));
}

int
nbd_unlocked_pread_structured (struct nbd_handle *h, void *buf, size_t count,
                               uint64_t offset, nbd_chunk_callback *chunk,
                               uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;
  int r;

  /* Its callbacks run in this thread: no unlocked poll meanwhile. */
  nbd_internal_begin_exclusive (h);
  nbd_internal_issue_sync (h);
  r = nbd_internal_run_until_done
    (h, nbd_unlocked_aio_pread_structured (h, buf, count, offset, chunk, &c,
                                           flags));
  nbd_internal_end_exclusive (h);
  return r;
}

int
nbd_unlocked_pwrite (struct nbd_handle *h, const void *buf, size_t count,
                     uint64_t offset, uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_pwrite (h, buf, count, offset, &c, flags));
}

int
nbd_unlocked_flush (struct nbd_handle *h, uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done (h, nbd_unlocked_aio_flush (h, &c,
                                                                 flags));
}

int
nbd_unlocked_trim (struct nbd_handle *h, uint64_t count, uint64_t offset,
                   uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_trim (h, count, offset, &c, flags));
}

int
nbd_unlocked_cache (struct nbd_handle *h, uint64_t count, uint64_t offset,
                    uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_cache (h, count, offset, &c, flags));
}

int
nbd_unlocked_zero (struct nbd_handle *h, uint64_t count, uint64_t offset,
                   uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  nbd_internal_issue_sync (h);
  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_zero (h, count, offset, &c, flags));
}

int
nbd_unlocked_block_status (struct nbd_handle *h, uint64_t count,
                           uint64_t offset, nbd_extent_callback *extent,
                           uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;
  int r;

  /* Its callbacks run in this thread: no unlocked poll meanwhile. */
  nbd_internal_begin_exclusive (h);
  nbd_internal_issue_sync (h);
  r = nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status (h, count, offset, extent, &c, flags));
  nbd_internal_end_exclusive (h);
  return r;
}

int
nbd_unlocked_block_status_64 (struct nbd_handle *h, uint64_t count,
                              uint64_t offset,
                              nbd_extent64_callback *extent64,
                              uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;
  int r;

  /* Its callbacks run in this thread: no unlocked poll meanwhile. */
  nbd_internal_begin_exclusive (h);
  nbd_internal_issue_sync (h);
  r = nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status_64 (h, count, offset, extent64, &c,
                                          flags));
  nbd_internal_end_exclusive (h);
  return r;
}

int
nbd_unlocked_block_status_filter (struct nbd_handle *h, uint64_t count,
                                  uint64_t offset, char **contexts,
                                  nbd_extent64_callback *extent64,
                                  uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;
  int r;

  /* Its callbacks run in this thread: no unlocked poll meanwhile. */
  nbd_internal_begin_exclusive (h);
  nbd_internal_issue_sync (h);
  r = nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status_filter (h, count, offset, contexts,
                                              extent64, &c, flags));
  nbd_internal_end_exclusive (h);
  return r;
}

/* Disconnect: unless abandoning, let queued commands finish first. */
int
nbd_unlocked_shutdown (struct nbd_handle *h, uint32_t flags)
{
  if (nbd_internal_is_state_negotiating (h->state))
    return nbd_unlocked_opt_abort (h);
  if (flags & LIBNBD_SHUTDOWN_ABANDON_PENDING)
    nbd_internal_abandon_pending (h);
  if (!h->disconnect_request && !h->disconnect_waiting &&
      (nbd_internal_is_state_ready (h->state) ||
       nbd_internal_is_state_processing (h->state)) &&
      nbd_unlocked_aio_disconnect (h, 0) == -1)
    return -1;
  while (!nbd_internal_is_state_closed (h->state) &&
         !nbd_internal_is_state_dead (h->state)) {
    if (nbd_unlocked_poll (h, -1) == -1)
      return -1;
  }
  return 0;
}
