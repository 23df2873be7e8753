/* rw.c: the data commands, synchronous and asynchronous. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/* Client-side checks of a data command (the LIBNBD_STRICT_* rules).
 * BOUNDS_ERR is the errno of a request past the end: writing there is
 * "no space", as libnbd reports it.
 */
static int
check_request_err (struct nbd_handle *h, uint64_t offset, uint64_t count,
                   int bounds_err)
{
  if (count == 0 && (h->strict & LIBNBD_STRICT_ZERO_SIZE)) {
    set_error (EINVAL, "count cannot be 0");
    return -1;
  }
  if ((h->strict & LIBNBD_STRICT_BOUNDS) &&
      (offset > h->exportsize || count > h->exportsize - offset)) {
    set_error (bounds_err, "request out of bounds");
    return -1;
  }
  if ((h->strict & LIBNBD_STRICT_ALIGN) && h->block_minimum &&
      (offset | count) & (h->block_minimum - 1)) {
    set_error (EINVAL, "request is unaligned");
    return -1;
  }
  return 0;
}

static int
check_request (struct nbd_handle *h, uint64_t offset, uint64_t count)
{
  return check_request_err (h, offset, count, EINVAL);
}

static int
check_write_request (struct nbd_handle *h, uint64_t offset, uint64_t count)
{
  return check_request_err (h, offset, count, ENOSPC);
}

/* Writes, trims and zeroes need a writable export. */
static int
check_writable (struct nbd_handle *h)
{
  if (h->eflags & NBD_FLAG_READ_ONLY) {
    set_error (EPERM, "server does not support write operations");
    return -1;
  }
  return 0;
}

/* A command the server did not advertise. */
static int
check_supported (struct nbd_handle *h, uint16_t eflag, const char *what)
{
  if ((h->strict & LIBNBD_STRICT_COMMANDS) && !(h->eflags & eflag)) {
    set_error (EINVAL, "server does not support %s", what);
    return -1;
  }
  return 0;
}

static int
check_fua (struct nbd_handle *h, uint32_t flags)
{
  if ((flags & LIBNBD_CMD_FLAG_FUA) && (h->strict & LIBNBD_STRICT_COMMANDS) &&
      !(h->eflags & NBD_FLAG_SEND_FUA)) {
    set_error (EINVAL, "server does not support the FUA flag");
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
  struct command_cb cb;

  if (check_request (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_READ, offset, count,
                                      buf, &cb);
}

int64_t
nbd_unlocked_aio_pread_structured (struct nbd_handle *h, void *buf,
                                   size_t count, uint64_t offset,
                                   nbd_chunk_callback *chunk,
                                   nbd_completion_callback *completion,
                                   uint32_t flags)
{
  struct command_cb cb;

  if ((flags & LIBNBD_CMD_FLAG_DF) && (h->strict & LIBNBD_STRICT_COMMANDS) &&
      !(h->eflags & NBD_FLAG_SEND_DF)) {
    set_error (EINVAL, "server does not support the DF flag");
    return -1;
  }
  if (check_request (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_CHUNK;
  TAKE_CALLBACK (cb.fn.chunk, chunk);
  return nbd_internal_command_common (h, flags, NBD_CMD_READ, offset, count,
                                      buf, &cb);
}

int64_t
nbd_unlocked_aio_pwrite (struct nbd_handle *h, const void *buf, size_t count,
                         uint64_t offset,
                         nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_writable (h) == -1)
    return -1;
  if (check_fua (h, flags) == -1 ||
      check_write_request (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags & ~LIBNBD_CMD_FLAG_PAYLOAD_LEN,
                                      NBD_CMD_WRITE, offset, count,
                                      (void *) buf, &cb);
}

int64_t
nbd_unlocked_aio_flush (struct nbd_handle *h,
                        nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_supported (h, NBD_FLAG_SEND_FLUSH, "flush") == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_FLUSH, 0, 0, NULL,
                                      &cb);
}

int64_t
nbd_unlocked_aio_trim (struct nbd_handle *h, uint64_t count, uint64_t offset,
                       nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_writable (h) == -1)
    return -1;
  if (check_supported (h, NBD_FLAG_SEND_TRIM, "trim") == -1 ||
      check_fua (h, flags) == -1 ||
      check_write_request (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_TRIM, offset, count,
                                      NULL, &cb);
}

int64_t
nbd_unlocked_aio_cache (struct nbd_handle *h, uint64_t count, uint64_t offset,
                        nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_supported (h, NBD_FLAG_SEND_CACHE, "cache") == -1 ||
      check_request (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_CACHE, offset, count,
                                      NULL, &cb);
}

int64_t
nbd_unlocked_aio_zero (struct nbd_handle *h, uint64_t count, uint64_t offset,
                       nbd_completion_callback *completion, uint32_t flags)
{
  struct command_cb cb;

  if (check_writable (h) == -1)
    return -1;
  if (check_supported (h, NBD_FLAG_SEND_WRITE_ZEROES, "zero") == -1 ||
      check_fua (h, flags) == -1 ||
      check_write_request (h, offset, count) == -1)
    return -1;
  if ((flags & LIBNBD_CMD_FLAG_FAST_ZERO) &&
      (h->strict & LIBNBD_STRICT_COMMANDS) &&
      !(h->eflags & NBD_FLAG_SEND_FAST_ZERO)) {
    set_error (EINVAL, "server does not support the fast zero flag");
    return -1;
  }
  cb = make_cb (completion);
  return nbd_internal_command_common (h, flags, NBD_CMD_WRITE_ZEROES, offset,
                                      count, NULL, &cb);
}

/* Block status needs base:allocation (or another context) agreed. */
static int
check_block_status (struct nbd_handle *h, uint64_t offset, uint64_t count)
{
  if (!h->structured_replies) {
    set_error (ENOTSUP, "server does not support structured replies");
    return -1;
  }
  if (h->meta_contexts.len == 0) {
    set_error (ENOTSUP, "did not negotiate any metadata contexts, "
               "either you did not call nbd_add_meta_context before "
               "connecting or the server does not support it");
    return -1;
  }
  return check_request (h, offset, count);
}

int64_t
nbd_unlocked_aio_block_status (struct nbd_handle *h, uint64_t count,
                               uint64_t offset, nbd_extent_callback *extent,
                               nbd_completion_callback *completion,
                               uint32_t flags)
{
  struct command_cb cb;

  if (check_block_status (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_EXTENT;
  TAKE_CALLBACK (cb.fn.extent, extent);
  return nbd_internal_command_common (h, flags & ~LIBNBD_CMD_FLAG_PAYLOAD_LEN,
                                      NBD_CMD_BLOCK_STATUS, offset, count,
                                      NULL, &cb);
}

int64_t
nbd_unlocked_aio_block_status_64 (struct nbd_handle *h, uint64_t count,
                                  uint64_t offset,
                                  nbd_extent64_callback *extent64,
                                  nbd_completion_callback *completion,
                                  uint32_t flags)
{
  struct command_cb cb;

  if (check_block_status (h, offset, count) == -1)
    return -1;
  cb = make_cb (completion);
  cb.kind = CB_EXTENT64;
  TAKE_CALLBACK (cb.fn.extent64, extent64);
  return nbd_internal_command_common (h, flags & ~LIBNBD_CMD_FLAG_PAYLOAD_LEN,
                                      NBD_CMD_BLOCK_STATUS, offset, count,
                                      NULL, &cb);
}

int64_t
nbd_unlocked_aio_block_status_filter (struct nbd_handle *h, uint64_t count,
                                      uint64_t offset, char **contexts,
                                      nbd_extent64_callback *extent64,
                                      nbd_completion_callback *completion,
                                      uint32_t flags)
{
  /* XXX Filtering needs extended headers, which are not done yet. */
  set_error (ENOTSUP, "server does not support block status filtering "
             "(needs extended headers)");
  return -1;
}

int
nbd_unlocked_aio_disconnect (struct nbd_handle *h, uint32_t flags)
{
  if (h->disconnect_request)
    return 0;
  return nbd_internal_command_common (h, 0, NBD_CMD_DISC, 0, 0, NULL, NULL)
    == -1 ? -1 : 0;
}

/* The synchronous calls: issue, then wait for that command. */

int
nbd_unlocked_pread (struct nbd_handle *h, void *buf, size_t count,
                    uint64_t offset, uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_pread (h, buf, count, offset, &c, flags));
}

int
nbd_unlocked_pread_structured (struct nbd_handle *h, void *buf, size_t count,
                               uint64_t offset, nbd_chunk_callback *chunk,
                               uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_pread_structured (h, buf, count, offset, chunk, &c,
                                           flags));
}

int
nbd_unlocked_pwrite (struct nbd_handle *h, const void *buf, size_t count,
                     uint64_t offset, uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_pwrite (h, buf, count, offset, &c, flags));
}

int
nbd_unlocked_flush (struct nbd_handle *h, uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done (h, nbd_unlocked_aio_flush (h, &c,
                                                                 flags));
}

int
nbd_unlocked_trim (struct nbd_handle *h, uint64_t count, uint64_t offset,
                   uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_trim (h, count, offset, &c, flags));
}

int
nbd_unlocked_cache (struct nbd_handle *h, uint64_t count, uint64_t offset,
                    uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_cache (h, count, offset, &c, flags));
}

int
nbd_unlocked_zero (struct nbd_handle *h, uint64_t count, uint64_t offset,
                   uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_zero (h, count, offset, &c, flags));
}

int
nbd_unlocked_block_status (struct nbd_handle *h, uint64_t count,
                           uint64_t offset, nbd_extent_callback *extent,
                           uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status (h, count, offset, extent, &c, flags));
}

int
nbd_unlocked_block_status_64 (struct nbd_handle *h, uint64_t count,
                              uint64_t offset,
                              nbd_extent64_callback *extent64,
                              uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status_64 (h, count, offset, extent64, &c,
                                          flags));
}

int
nbd_unlocked_block_status_filter (struct nbd_handle *h, uint64_t count,
                                  uint64_t offset, char **contexts,
                                  nbd_extent64_callback *extent64,
                                  uint32_t flags)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  return nbd_internal_run_until_done
    (h, nbd_unlocked_aio_block_status_filter (h, count, offset, contexts,
                                              extent64, &c, flags));
}

/* Disconnect: unless abandoning, let queued commands finish first. */
int
nbd_unlocked_shutdown (struct nbd_handle *h, uint32_t flags)
{
  if (nbd_internal_is_state_negotiating (h->state))
    return nbd_unlocked_opt_abort (h);
  if (flags & LIBNBD_SHUTDOWN_ABANDON_PENDING) {
    struct command *cmd = h->cmds_to_issue, *next;
    h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
    for (; cmd; cmd = next) {
      next = cmd->next;
      h->in_flight--;
      cmd->error = ESHUTDOWN;
      cmd->next = h->cmds_in_flight;
      h->cmds_in_flight = cmd;
      nbd_internal_complete_command (h, cmd);
    }
  }
  if (!h->disconnect_request &&
      nbd_unlocked_aio_disconnect (h, 0) == -1)
    return -1;
  while (!nbd_internal_is_state_closed (h->state) &&
         !nbd_internal_is_state_dead (h->state)) {
    if (nbd_unlocked_poll (h, -1) == -1)
      return -1;
  }
  return 0;
}
