/* commands.c: the life of a command: queued, in flight, done, retired. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <assert.h>
#include <limits.h>
#include <inttypes.h>

#include "internal.h"

/* The chunk or extent callback of a command, whichever it has. */
static void
free_mid_command_callback (struct command *cmd)
{
  switch (cmd->cb.kind) {
  case CB_CHUNK: FREE_CALLBACK (cmd->cb.fn.chunk); break;
  case CB_EXTENT: FREE_CALLBACK (cmd->cb.fn.extent); break;
  case CB_EXTENT64: FREE_CALLBACK (cmd->cb.fn.extent64); break;
  case CB_NONE: break;
  }
}

/* Free a command and its callbacks: mid-command ones first, then the
 * completion, as libnbd(3) documents.
 */
static void
retire_and_free_command (struct command *cmd)
{
  if (cmd == NULL)
    return;
  free_mid_command_callback (cmd);
  FREE_CALLBACK (cmd->cb.completion);
  free (cmd->seen.ptr);
  free (cmd->filter);
  free (cmd);
}

/* This file is the one owner of the four command lists, the cookie
 * index and the in_flight counts (commands queued or in flight,
 * NBD_CMD_DISC aside): every move between lists happens here.
 *
 * A synchronous call's command is its caller's alone: the caller
 * waits for it with the lock released (waiters.c) while other threads
 * use the handle, so it must never be named to them.  It is not
 * counted by nbd_aio_in_flight, once done it stays off cmds_done (so
 * nbd_aio_peek_command_completed never returns it), and
 * nbd_aio_command_completed treats its cookie as unknown.  Only the
 * waiting call retires it.  In libnbd 1.22, whose synchronous calls
 * hold the lock throughout, no other thread can see it either.
 */

/* A read whose data bypasses the read-ahead (see socket.c). */
static bool
is_large_read (const struct command *cmd)
{
  return cmd->type == NBD_CMD_READ && cmd->count >= RECV_DIRECT_SIZE;
}

/* Append CMD to the commands to issue. */
static void
enqueue (struct nbd_handle *h, struct command *cmd)
{
  if (h->cmds_to_issue_tail)
    h->cmds_to_issue_tail->next = cmd;
  else {
    assert (h->cmds_to_issue == NULL);
    h->cmds_to_issue = cmd;
  }
  h->cmds_to_issue_tail = cmd;
  cmd->state = CMD_QUEUED;
  if (cmd->type == NBD_CMD_DISC)
    h->disconnect_request = true;
  else {
    assert (h->in_flight >= 0 && h->in_flight < INT_MAX);
    nbd_internal_cookie_index_insert (&h->cookies, cmd);
    __atomic_add_fetch (&h->in_flight, 1, __ATOMIC_RELAXED);
    if (!cmd->sync)
      __atomic_add_fetch (&h->aio_in_flight, 1, __ATOMIC_RELAXED);
    h->large_reads += is_large_read (cmd);
  }
}

/* Take the first command off the queue to issue. */
static struct command *
dequeue (struct nbd_handle *h)
{
  struct command *cmd = h->cmds_to_issue;

  assert (cmd != NULL);
  h->cmds_to_issue = cmd->next;
  if (h->cmds_to_issue == NULL) {
    assert (h->cmds_to_issue_tail == cmd);
    h->cmds_to_issue_tail = NULL;
  }
  cmd->next = NULL;
  return cmd;
}

/* The first queued command, CMD, is gathered for sending: its bytes
 * are SEND_START to SEND_END of the gathered send, and it is being
 * sent until they have left (nbd_internal_commands_sent).
 */
void
nbd_internal_command_gathered (struct nbd_handle *h, struct command *cmd,
                               size_t send_start, size_t send_end)
{
  assert (cmd == h->cmds_to_issue);
  dequeue (h);
  cmd->state = CMD_SENDING;
  cmd->send_start = send_start;
  cmd->send_end = send_end;
  if (h->cmds_sending_tail) {
    assert (h->cmds_sending_tail->send_end <= send_end);
    h->cmds_sending_tail->next = cmd;
  }
  else
    h->cmds_sending = cmd;
  h->cmds_sending_tail = cmd;
}

/* Add CMD to the head of the in-flight list: newest first, the order
 * in which they fail when the connection dies, as in libnbd.
 */
static void
link_in_flight (struct nbd_handle *h, struct command *cmd)
{
  cmd->state = CMD_IN_FLIGHT;
  cmd->prev = NULL;
  cmd->next = h->cmds_in_flight;
  if (cmd->next)
    cmd->next->prev = cmd;
  h->cmds_in_flight = cmd;
}

/* SENT bytes of the gathered send have left: every command wholly
 * among them is in flight now, and may be answered (NBD_CMD_DISC gets
 * no reply, so it is freed).
 */
void
nbd_internal_commands_sent (struct nbd_handle *h, size_t sent)
{
  struct command *cmd;

  while ((cmd = h->cmds_sending) != NULL && cmd->send_end <= sent) {
    h->cmds_sending = cmd->next;
    if (h->cmds_sending == NULL)
      h->cmds_sending_tail = NULL;
    cmd->next = NULL;
    if (cmd->type == NBD_CMD_DISC) {
      free (cmd);
      continue;
    }
    link_in_flight (h, cmd);
  }
}

/* Free the closures of a command that was never created.  All the
 * closure types share one layout, so any member of the union frees.
 */
static void
free_unused_cb (struct command_cb *cb)
{
  if (cb) {
    FREE_CALLBACK (cb->fn.chunk);
    FREE_CALLBACK (cb->completion);
  }
}

/* With pread_initialize on, the generated wrapper zeroes the buffer
 * of an aio read when the call is made, as libnbd does: after the call
 * the buffer is written only by the server's data, even if the
 * program gives up on the read and frees the buffer before closing.
 * A synchronous nbd_pread (without a chunk callback) is not zeroed up
 * front: its buffer belongs to the call until it returns, nothing can
 * look at it before, and it succeeds only when every byte arrived.  So
 * only a failed one is zeroed, here, before the call returns: every
 * byte no reply filled, leaving what arrived, as libnbd leaves it.
 *
 * Zero the bytes of a failed read that no reply filled: outside every
 * range placed (overlapping or not), and the rest of a chunk still
 * being received into it.
 */
static void
zero_unfilled (struct nbd_handle *h, struct command *cmd)
{
  char *buf = cmd->data, *rbuf = h->rbuf;
  struct range_vector *seen = &cmd->seen;
  uint64_t pos = 0;
  size_t i;

  if (!cmd->zero_unfilled)
    return;
  cmd->zero_unfilled = false;
  if (cmd == h->reply_cmd && rbuf >= buf && rbuf < buf + cmd->count) {
    size_t left = buf + cmd->count - rbuf;
    memset (rbuf, 0, h->rlen < left ? h->rlen : left);
  }
  nbd_internal_range_sort (seen);
  for (i = 0; i < seen->len; ++i) {
    if (seen->ptr[i].start > pos)
      memset (buf + pos, 0, seen->ptr[i].start - pos);
    if (seen->ptr[i].end > pos)
      pos = seen->ptr[i].end;
  }
  if (pos < cmd->count)
    memset (buf + pos, 0, cmd->count - pos);
}

/* May another command be queued at all? */
static int
check_can_queue (struct nbd_handle *h)
{
  if (h->disconnect_request || h->disconnect_waiting) {
    set_error (EINVAL, "cannot request more commands after NBD_CMD_DISC");
    return -1;
  }
  if (h->in_flight == INT_MAX) {
    set_error (ENOMEM, "too many commands already in flight");
    return -1;
  }
  return 0;
}

/* The LIBNBD_STRICT_* range rules.  BOUNDS_ERR is the errno of a
 * request past the end (writing there is "no space").
 */
static int
check_range (struct nbd_handle *h, uint64_t offset, uint64_t count,
             int bounds_err)
{
  if ((h->strict & LIBNBD_STRICT_ZERO_SIZE) && count == 0) {
    set_error (EINVAL, "count cannot be 0");
    return -1;
  }
  if ((h->strict & LIBNBD_STRICT_BOUNDS) &&
      (offset > h->exportsize || count > h->exportsize - offset)) {
    set_error (bounds_err, "request out of bounds");
    return -1;
  }
  if (h->block_minimum && (h->strict & LIBNBD_STRICT_ALIGN) &&
      (offset | count) & (h->block_minimum - 1)) {
    set_error (EINVAL, "request is unaligned");
    return -1;
  }
  return 0;
}

/* Size limits: write payloads by the server's payload maximum (strict
 * mode), reads and writes by our buffer limit, the rest by the 32 bit
 * length field of a compact request (extended requests have 64 bits).
 */
static int
check_size (struct nbd_handle *h, uint16_t type, uint64_t count)
{
  uint32_t payload_max = nbd_internal_payload_maximum (h);

  if (type == NBD_CMD_WRITE && (h->strict & LIBNBD_STRICT_PAYLOAD) &&
      count > payload_max) {
    set_error (ERANGE, "request too large: maximum payload size is %"
               PRIu32, payload_max);
    return -1;
  }
  if ((type == NBD_CMD_WRITE || type == NBD_CMD_READ) &&
      count > MAX_REQUEST_SIZE) {
    set_error (ERANGE, "request too large: maximum request size is %d",
               MAX_REQUEST_SIZE);
    return -1;
  }
  if (!h->extended_headers && count > UINT32_MAX) {
    set_error (ERANGE, "request too large: maximum request size is %"
               PRIu32, UINT32_MAX);
    return -1;
  }
  return 0;
}

/* Queue a command.  CB's closures are taken (the caller's cleared),
 * and freed here if the command cannot be created.  COUNT_ERR, when
 * not 0, asks for the range checks with that errno for out of bounds.
 * Returns the cookie, or -1 with the error set.
 */
static int64_t
queue_command (struct nbd_handle *h, uint16_t flags, uint16_t type,
               uint64_t offset, uint64_t count, int count_err, void *data,
               char *filter, uint32_t filter_len, struct command_cb *cb,
               bool zero_late)
{
  struct command *cmd;
  int64_t cookie;

  if (check_can_queue (h) == -1 ||
      (count_err && check_range (h, offset, count, count_err) == -1) ||
      check_size (h, type, count) == -1)
    goto err;
  cmd = calloc (1, sizeof *cmd);
  if (cmd == NULL) {
    set_error (errno, "calloc");
    goto err;
  }
  cmd->flags = flags;
  cmd->type = type;
  cmd->offset = offset;
  cmd->count = count;
  cmd->data = data;
  cmd->filter = filter;
  cmd->filter_len = filter_len;
  cmd->zero_unfilled = zero_late;
  /* The generated wrapper cleared the buffer under the same lock. */
  cmd->initialized = type == NBD_CMD_READ && data != NULL && !zero_late &&
    h->pread_initialize;
  cmd->cookie = cookie = ++h->unique;
  cmd->sync = h->issuing_sync && type != NBD_CMD_DISC;
  if (cmd->sync)
    cmd->owner = pthread_self ();
  h->issuing_sync = false;
  if (cb) {
    cmd->cb = *cb;
    memset (cb, 0, sizeof *cb);
  }
  enqueue (h, cmd);

  /* READY decides whether to send now or let a batch form (see
   * should_issue in generator/states-issue-command.c).  The command is
   * queued: from here on the caller gets its cookie even if the state
   * machine fails, and learns of the failure from the command itself.
   */
  if (nbd_internal_is_state_ready (h->state) &&
      nbd_internal_run (h, CmdIssue) == -1)
    debug (h, "command queued, ignoring state machine failure");
  nbd_internal_command_queued (h);    /* another thread may be polling */
  /* cmd may be gone already (NBD_CMD_DISC is freed once sent). */
  return cookie;

 err:
  h->issuing_sync = false;
  if (zero_late)
    memset (data, 0, count);
  free (filter);
  free_unused_cb (cb);
  return -1;
}

int64_t
nbd_internal_command_common (struct nbd_handle *h, uint16_t flags,
                             uint16_t type, uint64_t offset, uint64_t count,
                             int count_err, void *data,
                             struct command_cb *cb)
{
  return queue_command (h, flags, type, offset, count, count_err, data,
                        NULL, 0, cb, false);
}

/* The read of a synchronous nbd_pread: zeroed late (see above). */
int64_t
nbd_internal_command_read (struct nbd_handle *h, uint16_t flags,
                           uint64_t offset, uint64_t count, void *data)
{
  return queue_command (h, flags, NBD_CMD_READ, offset, count, EINVAL, data,
                        NULL, 0, NULL, h->pread_initialize && data != NULL);
}

/* A block status carrying FILTER (FILTER_LEN bytes, taken: freed with
 * the command, or here on failure) as its payload.
 */
int64_t
nbd_internal_command_filtered (struct nbd_handle *h, uint16_t flags,
                               uint64_t offset, uint64_t count,
                               char *filter, uint32_t filter_len,
                               struct command_cb *cb)
{
  return queue_command (h, flags, NBD_CMD_BLOCK_STATUS, offset, count,
                        EINVAL, NULL, filter, filter_len, cb, false);
}

/* The command a reply with COOKIE answers: *CMD is set to it, or to
 * NULL for a cookie no command has (such a reply is skipped).  A reply
 * to a command whose request is still being sent is -1 (error set):
 * the server answered bytes it has not read, and the rest of the
 * payload would be sent from a buffer its caller may have freed.
 */
int
nbd_internal_reply_command (struct nbd_handle *h, uint64_t cookie,
                            struct command **cmd)
{
  struct command *c = nbd_internal_cookie_index_find (&h->cookies, cookie);

  *cmd = NULL;
  if (c && c->state == CMD_SENDING) {
    set_error (EPROTO, "the server replied to command %" PRIu64
               " before its request was sent in full", cookie);
    return -1;
  }
  if (c && c->state == CMD_IN_FLIGHT)
    *cmd = c;
  return 0;
}

static void
unlink_in_flight (struct nbd_handle *h, struct command *cmd)
{
  if (cmd->prev)
    cmd->prev->next = cmd->next;
  else
    h->cmds_in_flight = cmd->next;
  if (cmd->next)
    cmd->next->prev = cmd->prev;
  cmd->next = cmd->prev = NULL;
}

/* CMD, off every list, is finished: check a read was covered, call
 * the completion callback, and retire the command or append it to the
 * done list.
 */
static void
finish_command (struct nbd_handle *h, struct command *cmd)
{
  int err = cmd->error;
  int r = 0;

  assert (h->in_flight > 0);
  __atomic_sub_fetch (&h->in_flight, 1, __ATOMIC_RELAXED);
  if (!cmd->sync) {
    assert (h->aio_in_flight > 0);
    __atomic_sub_fetch (&h->aio_in_flight, 1, __ATOMIC_RELAXED);
  }
  assert (h->large_reads >= (unsigned) is_large_read (cmd));
  h->large_reads -= is_large_read (cmd);
  if (err == 0 && cmd->type == NBD_CMD_READ &&
      nbd_internal_range_covered (&cmd->seen) != cmd->count) {
    debug (h, "server did not send every byte of the read: failing it");
    err = cmd->error = EPROTO;
  }
  if (err)
    zero_unfilled (h, cmd);
  cmd->zero_unfilled = false;   /* done: the buffer is the caller's */
  if (cmd->cb.completion.callback) {
    r = CALL_CALLBACK (cmd->cb.completion, &err);
    if (r == -1 && err)
      cmd->error = err;
  }
  /* Mid-command callbacks will not run again. */
  free_mid_command_callback (cmd);
  FREE_CALLBACK (cmd->cb.completion);
  if (r == 1) {                 /* auto-retire */
    nbd_internal_cookie_index_remove (&h->cookies, cmd);
    retire_and_free_command (cmd);
    return;
  }
  cmd->state = CMD_DONE;
  cmd->next = NULL;
  if (cmd->sync) {              /* its caller retires it */
    cmd->prev = NULL;
    if (!pthread_equal (cmd->owner, pthread_self ()))
      nbd_internal_sync_done_elsewhere (h);
    return;
  }
  cmd->prev = h->cmds_done_tail;
  if (h->cmds_done_tail)
    h->cmds_done_tail->next = cmd;
  else {
    assert (h->cmds_done == NULL);
    h->cmds_done = cmd;
  }
  h->cmds_done_tail = cmd;
}

/* The reply to CMD, in flight, is complete. */
void
nbd_internal_complete_command (struct nbd_handle *h, struct command *cmd)
{
  unlink_in_flight (h, cmd);
  finish_command (h, cmd);
}

/* Fail every command of LIST (detached already) with ERR unless it has
 * an error of its own.  NBD_CMD_DISC is simply freed.
 */
static void
fail_list (struct nbd_handle *h, struct command *cmd, int err)
{
  struct command *next;

  for (; cmd; cmd = next) {
    next = cmd->next;
    cmd->next = NULL;
    if (cmd->type == NBD_CMD_DISC) {
      free (cmd);
      continue;
    }
    if (cmd->error == 0)
      cmd->error = err;
    finish_command (h, cmd);
  }
}

/* The connection is gone: every queued or in-flight command fails,
 * in libnbd's order: the one being sent, then the queue, then those
 * in flight, newest first.
 */
void
nbd_internal_abort_commands (struct nbd_handle *h)
{
  struct command *to_issue = h->cmds_to_issue;
  struct command *sending = h->cmds_sending;
  struct command *in_flight = h->cmds_in_flight;

  h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  h->cmds_sending = h->cmds_sending_tail = NULL;
  h->cmds_in_flight = NULL;
  h->reply_parked = 0;
  /* h->reply_cmd still names a read being received, for zero_unfilled. */
  fail_list (h, sending, ENOTCONN);
  fail_list (h, to_issue, ENOTCONN);
  fail_list (h, in_flight, ENOTCONN);
  h->reply_cmd = NULL;
  assert (h->in_flight == 0);
}

/* Of the commands being sent, the first may have begun to leave: keep
 * it (a request cut short would break the stream) and return the rest,
 * detached, none of whose bytes have left.  The gathered send is cut
 * back to what is kept.
 */
static struct command *
unsend_not_begun (struct nbd_handle *h)
{
  size_t pos = h->gather_sent + h->big_sent;
  struct command *keep = h->cmds_sending, *rest;

  if (keep == NULL)
    return NULL;
  if (pos <= keep->send_start) {        /* not even the first began */
    assert (pos == keep->send_start);
    rest = keep;
    keep = NULL;
    h->cmds_sending = h->cmds_sending_tail = NULL;
  }
  else {
    rest = keep->next;
    keep->next = NULL;
    h->cmds_sending_tail = keep;
  }
  nbd_internal_gather_truncate (h, keep ? keep->send_end : pos);
  return rest;
}

/* nbd_shutdown with ABANDON_PENDING: the commands none of whose bytes
 * have left fail with ENOTCONN, so that NBD_CMD_DISC goes next, as
 * libnbd(3) promises.  A command already part sent is kept, and a
 * queued NBD_CMD_DISC stays queued.
 */
void
nbd_internal_abandon_pending (struct nbd_handle *h)
{
  struct command *cmd = unsend_not_begun (h), *next;
  struct command *disc = NULL, *drop = NULL, **dtail = &drop;

  /* The unsent gathered ones, then the queue, in the order issued. */
  if (h->cmds_to_issue) {
    struct command **tail = &cmd;
    while (*tail)
      tail = &(*tail)->next;
    *tail = h->cmds_to_issue;
    h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  }
  for (; cmd; cmd = next) {
    next = cmd->next;
    cmd->next = NULL;
    if (cmd->type == NBD_CMD_DISC)
      disc = cmd;
    else {
      *dtail = cmd;
      dtail = &cmd->next;
    }
  }
  if (disc) {
    disc->state = CMD_QUEUED;
    h->cmds_to_issue = h->cmds_to_issue_tail = disc;
  }
  fail_list (h, drop, ENOTCONN);
}

/* Closing the handle: every command not retired yet gets its completion
 * callback with an error (as libnbd 1.22 does, in the order of
 * nbd_internal_abort_commands, then the done ones), then is freed.
 */
void
nbd_internal_free_all_commands (struct nbd_handle *h)
{
  struct command *lists[4] = { h->cmds_sending, h->cmds_to_issue,
                               h->cmds_in_flight, h->cmds_done };
  int i;

  h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  h->cmds_sending = h->cmds_sending_tail = NULL;
  h->cmds_in_flight = NULL;
  h->cmds_done = h->cmds_done_tail = NULL;
  nbd_internal_cookie_index_reset (&h->cookies);
  for (i = 0; i < 4; ++i) {
    struct command *cmd = lists[i], *next;
    for (; cmd; cmd = next) {
      int err = cmd->error ? cmd->error : ENOTCONN;
      next = cmd->next;
      if (cmd->type == NBD_CMD_DISC) {
        free (cmd);
        continue;
      }
      if (cmd->cb.completion.callback)
        CALL_CALLBACK (cmd->cb.completion, &err);
      retire_and_free_command (cmd);
    }
  }
  __atomic_store_n (&h->in_flight, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&h->aio_in_flight, 0, __ATOMIC_RELAXED);
  h->large_reads = 0;
}

/* What nbd_aio_command_completed names a failed command by. */
static const char *
command_name (uint16_t type)
{
  switch (type) {
  case NBD_CMD_READ: return "read";
  case NBD_CMD_WRITE: return "write";
  case NBD_CMD_DISC: return "disconnect";
  case NBD_CMD_FLUSH: return "flush";
  case NBD_CMD_TRIM: return "trim";
  case NBD_CMD_CACHE: return "cache";
  case NBD_CMD_WRITE_ZEROES: return "write-zeroes";
  case NBD_CMD_BLOCK_STATUS: return "block-status";
  }
  return "unknown";
}

/* Take CMD off the done list. */
static void
unlink_done (struct nbd_handle *h, struct command *cmd)
{
  if (cmd->prev)
    cmd->prev->next = cmd->next;
  else
    h->cmds_done = cmd->next;
  if (cmd->next)
    cmd->next->prev = cmd->prev;
  else
    h->cmds_done_tail = cmd->prev;
}

/* Take CMD, done, off the done list (a synchronous call's is on
 * none) and the index, and free it.
 */
static void
retire_done (struct nbd_handle *h, struct command *cmd)
{
  nbd_internal_cookie_index_remove (&h->cookies, cmd);
  if (!cmd->sync)
    unlink_done (h, cmd);
  retire_and_free_command (cmd);
}

/* Retire CMD, done: 1 if it succeeded, -1 with its error if not. */
static int
retire_result (struct nbd_handle *h, struct command *cmd)
{
  uint16_t type = cmd->type;
  int err = cmd->error;

  retire_done (h, cmd);
  if (err) {
    set_error (err, "%s: command failed", command_name (type));
    return -1;
  }
  return 1;
}

/* 1 if the command is done (and retire it), -1 if it failed (also
 * retired), 0 if it is not done, or not known at all: as in libnbd,
 * where only a cookie below 1 is an error.  Another thread's
 * synchronous command is not known here (see the top of the file).
 */
int
nbd_unlocked_aio_command_completed (struct nbd_handle *h, uint64_t cookie)
{
  struct command *cmd;

  if (cookie < 1) {
    set_error (EINVAL, "invalid aio cookie %" PRId64, (int64_t) cookie);
    return -1;
  }
  cmd = nbd_internal_cookie_index_find (&h->cookies, cookie);
  if (cmd == NULL || cmd->sync || cmd->state != CMD_DONE)
    return 0;
  return retire_result (h, cmd);
}

int64_t
nbd_unlocked_aio_peek_command_completed (struct nbd_handle *h)
{
  if (h->cmds_done)
    return h->cmds_done->cookie;
  if (h->aio_in_flight > 0) {
    /* Often asked in a loop: the same message is not built again. */
    nbd_internal_set_error_text ("no in-flight command has completed yet");
    return 0;
  }
  set_error (EINVAL, "no commands are in flight");
  return -1;
}

int
nbd_unlocked_aio_in_flight (struct nbd_handle *h)
{
  /* Lock-free, as in libnbd: the count is only changed under the lock,
   * with atomic operations.
   */
  return __atomic_load_n (&h->aio_in_flight, __ATOMIC_RELAXED);
}

/* The next command queued is the calling synchronous call's own (see
 * the top of the file): call it just before the nbd_unlocked_aio_*
 * call whose cookie nbd_internal_run_until_done is given.
 */
void
nbd_internal_issue_sync (struct nbd_handle *h)
{
  h->issuing_sync = true;
}

/* The synchronous call's command COOKIE: 1 done (and retired), -1
 * failed (retired too), 0 not done yet.  Only its caller retires it,
 * so it is still known.
 */
static int
sync_completed (struct nbd_handle *h, int64_t cookie)
{
  struct command *cmd = nbd_internal_cookie_index_find (&h->cookies, cookie);

  assert (cmd != NULL && cmd->sync);
  if (cmd->state != CMD_DONE)
    return 0;
  return retire_result (h, cmd);
}

/* One round of waiting for replies in a synchronous call: if another
 * thread polls with the lock released, let it and wait until it has
 * handled a poll's worth; else poll this thread.  -1 if polling failed.
 */
static int
wait_for_replies (struct nbd_handle *h)
{
  if (h->pollers > 0 && h->exclusive == 0) {
    nbd_internal_wait_for_poller (h);
    return 0;
  }
  return nbd_internal_poll_for_command (h);
}

/* Drive the handle until the command COOKIE is done, then retire it.
 * 0 on success, -1 with the error set.  The command may point into
 * the caller's stack: if waiting fails before it is done, the handle
 * is made dead, which fails the command now, so that nothing writes
 * to its buffer or calls its callbacks once this returns.
 */
int
nbd_internal_run_until_done (struct nbd_handle *h, int64_t cookie)
{
  int r;

  h->issuing_sync = false;      /* if the command was never queued */
  if (cookie == -1)
    return -1;
  while ((r = sync_completed (h, cookie)) == 0) {
    if (wait_for_replies (h) == -1) {
      struct command *cmd;
      nbd_internal_go_dead (h);
      /* Failed by now; retired without replacing the poll's error. */
      cmd = nbd_internal_cookie_index_find (&h->cookies, cookie);
      if (cmd && cmd->state == CMD_DONE)
        retire_done (h, cmd);
      return -1;
    }
  }
  return r == 1 ? 0 : -1;
}

/* Before NBD_CMD_DISC is queued: wait, the lock released, until no
 * other thread's synchronous command is unfinished, polling when no
 * other thread polls.  In libnbd 1.22 the disconnect waits for the
 * lock until those calls have returned; sent behind their requests,
 * it would end the connection under them (a server may drop requests
 * still in flight at NBD_CMD_DISC).  Meanwhile new commands are
 * refused as after NBD_CMD_DISC (check_can_queue).  -1 if polling
 * failed.
 */
int
nbd_internal_wait_sync_commands (struct nbd_handle *h)
{
  int r = 0;

  h->disconnect_waiting = true;
  while (h->in_flight > h->aio_in_flight) {
    if (wait_for_replies (h) == -1) {
      r = -1;
      break;
    }
  }
  h->disconnect_waiting = false;
  return r;
}
