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

/* This file is the one owner of the three command lists and of the
 * in_flight count (commands queued or in flight, NBD_CMD_DISC aside):
 * every move between lists happens here.
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
  if (cmd->type == NBD_CMD_DISC)
    h->disconnect_request = true;
  else {
    assert (h->in_flight >= 0 && h->in_flight < INT_MAX);
    __atomic_add_fetch (&h->in_flight, 1, __ATOMIC_RELAXED);
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

/* The first queued command, CMD, is gathered for sending: it is
 * being sent until the first SEND_END bytes of the gathered send have
 * left (nbd_internal_commands_sent).
 */
void
nbd_internal_command_gathered (struct nbd_handle *h, struct command *cmd,
                               size_t send_end)
{
  assert (cmd == h->cmds_to_issue);
  dequeue (h);
  cmd->send_end = send_end;
  if (h->cmds_sending_tail) {
    assert (h->cmds_sending_tail->send_end <= send_end);
    h->cmds_sending_tail->next = cmd;
  }
  else
    h->cmds_sending = cmd;
  h->cmds_sending_tail = cmd;
}

static struct command **
index_bucket (struct nbd_handle *h, uint64_t cookie)
{
  return &h->in_flight_index[cookie & (IN_FLIGHT_BUCKETS - 1)];
}

/* Add CMD to the head of the in-flight list (newest first, as the
 * order of failures when the connection dies shows) and to the cookie
 * index, so that a reply finds its command without a walk of the list.
 */
static void
link_in_flight (struct nbd_handle *h, struct command *cmd)
{
  struct command **bucket = index_bucket (h, cmd->cookie);

  cmd->prev = NULL;
  cmd->next = h->cmds_in_flight;
  if (cmd->next)
    cmd->next->prev = cmd;
  h->cmds_in_flight = cmd;
  cmd->bucket_next = *bucket;
  *bucket = cmd;
}

static struct command *
find_in_flight (struct nbd_handle *h, uint64_t cookie)
{
  struct command *cmd = *index_bucket (h, cookie);

  while (cmd && cmd->cookie != cookie)
    cmd = cmd->bucket_next;
  return cmd;
}

/* The in-flight list is detached whole: empty the index too. */
static void
clear_in_flight (struct nbd_handle *h)
{
  h->cmds_in_flight = NULL;
  memset (h->in_flight_index, 0, sizeof h->in_flight_index);
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

/* With pread_initialize on, a read without a chunk callback is not
 * zeroed when it is queued (the wrapper zeroes one with a chunk
 * callback, which may look at the buffer): no one may look at the
 * buffer before the command is done, and a read succeeds only when
 * every byte arrived.  So only a failed read is zeroed, here, before
 * its completion runs: every byte no reply filled, leaving what
 * arrived, as libnbd 1.22 leaves it.
 */
static bool
reads_zeroed_late (struct nbd_handle *h, uint16_t type, void *data,
                   const struct command_cb *cb)
{
  return type == NBD_CMD_READ && data != NULL && h->pread_initialize &&
    (cb == NULL || cb->kind != CB_CHUNK);
}

/* Zero the bytes of a failed read that no reply filled: outside every
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
  if (h->disconnect_request) {
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
               char *filter, uint32_t filter_len, struct command_cb *cb)
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
  cmd->zero_unfilled = reads_zeroed_late (h, type, data, cb);
  cmd->cookie = cookie = ++h->unique;
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
  /* cmd may be gone already (NBD_CMD_DISC is freed once sent). */
  return cookie;

 err:
  if (reads_zeroed_late (h, type, data, cb))
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
                        NULL, 0, cb);
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
                        EINVAL, NULL, filter, filter_len, cb);
}

static struct command *
find_cookie (struct command *list, uint64_t cookie)
{
  for (; list; list = list->next)
    if (list->cookie == cookie)
      return list;
  return NULL;
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
  *cmd = find_in_flight (h, cookie);
  if (*cmd == NULL && find_cookie (h->cmds_sending, cookie)) {
    set_error (EPROTO, "the server replied to command %" PRIu64
               " before its request was sent in full", cookie);
    return -1;
  }
  return 0;
}

static void
unlink_in_flight (struct nbd_handle *h, struct command *cmd)
{
  struct command **pp = index_bucket (h, cmd->cookie);

  while (*pp != cmd) {
    assert (*pp != NULL);
    pp = &(*pp)->bucket_next;
  }
  *pp = cmd->bucket_next;
  if (cmd->prev)
    cmd->prev->next = cmd->next;
  else
    h->cmds_in_flight = cmd->next;
  if (cmd->next)
    cmd->next->prev = cmd->prev;
  cmd->next = cmd->prev = cmd->bucket_next = NULL;
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
    retire_and_free_command (cmd);
    return;
  }
  cmd->next = NULL;
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

/* The connection is gone: every queued or in-flight command fails. */
void
nbd_internal_abort_commands (struct nbd_handle *h)
{
  struct command *to_issue = h->cmds_to_issue;
  struct command *sending = h->cmds_sending;
  struct command *in_flight = h->cmds_in_flight;

  h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  h->cmds_sending = h->cmds_sending_tail = NULL;
  clear_in_flight (h);
  h->reply_parked = 0;
  /* h->reply_cmd still names a read being received, for zero_unfilled. */
  fail_list (h, to_issue, ENOTCONN);
  fail_list (h, sending, ENOTCONN);
  fail_list (h, in_flight, ENOTCONN);
  h->reply_cmd = NULL;
  assert (h->in_flight == 0);
}

/* nbd_shutdown with ABANDON_PENDING: the commands not sent yet fail
 * with ENOTCONN, so that NBD_CMD_DISC goes next.  A queued NBD_CMD_DISC
 * stays queued.
 */
void
nbd_internal_abandon_pending (struct nbd_handle *h)
{
  struct command *keep = NULL, *drop = NULL, **dtail = &drop;

  while (h->cmds_to_issue) {
    struct command *cmd = dequeue (h);
    if (cmd->type == NBD_CMD_DISC)
      keep = cmd;
    else {
      *dtail = cmd;
      dtail = &cmd->next;
    }
  }
  if (keep) {
    h->cmds_to_issue = h->cmds_to_issue_tail = keep;
  }
  fail_list (h, drop, ENOTCONN);
}

/* Closing the handle: every command not retired yet gets its completion
 * callback with an error (as libnbd 1.22 does), then is freed.
 */
void
nbd_internal_free_all_commands (struct nbd_handle *h)
{
  struct command *lists[4] = { h->cmds_to_issue, h->cmds_sending,
                               h->cmds_in_flight, h->cmds_done };
  int i;

  h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  h->cmds_sending = h->cmds_sending_tail = NULL;
  clear_in_flight (h);
  h->cmds_done = h->cmds_done_tail = NULL;
  for (i = 0; i < 4; ++i) {
    struct command *cmd = lists[i], *next;
    for (; cmd; cmd = next) {
      int err = cmd->error ? cmd->error : ENOTCONN;
      next = cmd->next;
      zero_unfilled (h, cmd);
      if (cmd->cb.completion.callback)
        CALL_CALLBACK (cmd->cb.completion, &err);
      retire_and_free_command (cmd);
    }
  }
  __atomic_store_n (&h->in_flight, 0, __ATOMIC_RELAXED);
  h->large_reads = 0;
}

/* 1 if the command is done (and retire it), 0 if not, -1 if it failed
 * (also retired) or the cookie is unknown.
 */
int
nbd_unlocked_aio_command_completed (struct nbd_handle *h, uint64_t cookie)
{
  struct command *cmd, *prev = NULL;
  int err;

  for (cmd = h->cmds_done; cmd; prev = cmd, cmd = cmd->next)
    if (cmd->cookie == cookie)
      break;
  if (cmd == NULL) {
    if (find_in_flight (h, cookie) ||
        find_cookie (h->cmds_sending, cookie) ||
        find_cookie (h->cmds_to_issue, cookie))
      return 0;
    set_error (EINVAL, "invalid aio command cookie %" PRIu64, cookie);
    return -1;
  }
  if (prev)
    prev->next = cmd->next;
  else
    h->cmds_done = cmd->next;
  if (h->cmds_done_tail == cmd)
    h->cmds_done_tail = prev;
  err = cmd->error;
  retire_and_free_command (cmd);
  if (err) {
    set_error (err, "%s", "command failed");
    return -1;
  }
  return 1;
}

int64_t
nbd_unlocked_aio_peek_command_completed (struct nbd_handle *h)
{
  if (h->cmds_done)
    return h->cmds_done->cookie;
  if (h->in_flight > 0)
    return 0;
  set_error (EINVAL, "no commands are in flight");
  return -1;
}

int
nbd_unlocked_aio_in_flight (struct nbd_handle *h)
{
  /* Lock-free, as in libnbd: the count is only changed under the lock,
   * with atomic operations.
   */
  return __atomic_load_n (&h->in_flight, __ATOMIC_RELAXED);
}

/* Drive the handle until the command COOKIE is done, then retire it.
 * 0 on success, -1 with the error set.
 */
int
nbd_internal_run_until_done (struct nbd_handle *h, int64_t cookie)
{
  int r;

  if (cookie == -1)
    return -1;
  while ((r = nbd_unlocked_aio_command_completed (h, cookie)) == 0) {
    if (nbd_unlocked_poll (h, -1) == -1)
      return -1;
  }
  return r == 1 ? 0 : -1;
}
