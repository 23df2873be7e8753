/* commands.c: the life of a command: queued, in flight, done, retired. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

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
void
nbd_internal_retire_and_free_command (struct command *cmd)
{
  if (cmd == NULL)
    return;
  free_mid_command_callback (cmd);
  FREE_CALLBACK (cmd->cb.completion);
  free (cmd->seen.ptr);
  free (cmd);
}

/* Append CMD to the commands to issue. */
static void
enqueue (struct nbd_handle *h, struct command *cmd)
{
  if (h->cmds_to_issue_tail)
    h->cmds_to_issue_tail->next = cmd;
  else
    h->cmds_to_issue = cmd;
  h->cmds_to_issue_tail = cmd;
  if (cmd->type == NBD_CMD_DISC)
    h->disconnect_request = true;
  else
    h->in_flight++;
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

/* Queue a command.  CB's closures are taken (the caller's cleared),
 * and freed here if the command cannot be created.  Returns the
 * cookie, or -1 with the error set.
 */
int64_t
nbd_internal_command_common (struct nbd_handle *h, uint16_t flags,
                             uint16_t type, uint64_t offset, uint64_t count,
                             void *data, struct command_cb *cb)
{
  struct command *cmd;
  int64_t cookie;

  if (h->disconnect_request) {
    set_error (EINVAL, "cannot request more commands after NBD_CMD_DISC");
    goto err;
  }
  if (count > MAX_REQUEST_SIZE && (type == NBD_CMD_READ ||
                                   type == NBD_CMD_WRITE)) {
    set_error (ERANGE, "request too large: maximum request size is %d",
               MAX_REQUEST_SIZE);
    goto err;
  }
  if (count > UINT32_MAX) {
    set_error (ERANGE, "request too large for the NBD protocol");
    goto err;
  }
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
  cmd->cookie = cookie = ++h->unique;
  if (cb) {
    cmd->cb = *cb;
    memset (cb, 0, sizeof *cb);
  }
  enqueue (h, cmd);

  /* READY decides whether to send now or let a batch form (see
   * should_issue in generator/states-issue-command.c).
   */
  if (nbd_internal_is_state_ready (h->state) &&
      nbd_internal_run (h, CmdIssue) == -1)
    return -1;
  /* cmd may be gone already (NBD_CMD_DISC is freed once sent). */
  return cookie;

 err:
  free_unused_cb (cb);
  return -1;
}

struct command *
nbd_internal_find_in_flight (struct nbd_handle *h, uint64_t cookie)
{
  struct command *cmd;

  for (cmd = h->cmds_in_flight; cmd; cmd = cmd->next)
    if (cmd->cookie == cookie)
      return cmd;
  return NULL;
}

static void
unlink_in_flight (struct nbd_handle *h, struct command *cmd)
{
  struct command **pp;

  for (pp = &h->cmds_in_flight; *pp; pp = &(*pp)->next)
    if (*pp == cmd) {
      *pp = cmd->next;
      break;
    }
  cmd->next = NULL;
}

/* The reply is complete: check a read was covered, call the completion
 * callback, and retire the command or move it to the done list.
 */
void
nbd_internal_complete_command (struct nbd_handle *h, struct command *cmd)
{
  int err = cmd->error;
  int r = 0;

  unlink_in_flight (h, cmd);
  h->in_flight--;
  if (err == 0 && cmd->type == NBD_CMD_READ &&
      nbd_internal_range_covered (&cmd->seen) != cmd->count) {
    debug (h, "server did not send every byte of the read: failing it");
    err = cmd->error = EPROTO;
  }
  if (cmd->cb.completion.callback) {
    r = CALL_CALLBACK (cmd->cb.completion, &err);
    if (r == -1 && err)
      cmd->error = err;
  }
  /* Mid-command callbacks will not run again. */
  free_mid_command_callback (cmd);
  FREE_CALLBACK (cmd->cb.completion);
  if (r == 1) {                 /* auto-retire */
    nbd_internal_retire_and_free_command (cmd);
    return;
  }
  if (h->cmds_done_tail)
    h->cmds_done_tail->next = cmd;
  else
    h->cmds_done = cmd;
  h->cmds_done_tail = cmd;
}

/* The connection is gone: every queued or in-flight command fails. */
void
nbd_internal_abort_commands (struct nbd_handle *h)
{
  struct command *lists[2] = { h->cmds_to_issue, h->cmds_in_flight };
  int i;

  h->cmds_to_issue = h->cmds_to_issue_tail = NULL;
  h->cmds_in_flight = NULL;
  h->reply_cmd = NULL;
  h->reply_parked = 0;
  for (i = 0; i < 2; ++i) {
    struct command *cmd = lists[i], *next;
    for (; cmd; cmd = next) {
      next = cmd->next;
      if (cmd->type == NBD_CMD_DISC) {
        free (cmd);
        continue;
      }
      if (cmd->error == 0)
        cmd->error = ENOTCONN;
      /* Put it back so complete_command can unlink it. */
      cmd->next = h->cmds_in_flight;
      h->cmds_in_flight = cmd;
      nbd_internal_complete_command (h, cmd);
    }
  }
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
    if (nbd_internal_find_in_flight (h, cookie))
      return 0;
    for (cmd = h->cmds_to_issue; cmd; cmd = cmd->next)
      if (cmd->cookie == cookie)
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
  nbd_internal_retire_and_free_command (cmd);
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
  return h->in_flight;
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
