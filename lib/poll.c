/* poll.c: driving the handle from an event loop: fd, direction,
 * notifications, nbd_poll, sending what was queued while others poll,
 * and the public state predicates.  It polls with the lock released
 * through waiters.c, which never calls back here.
 */
#include <config.h>

#include <stdlib.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>

#include "internal.h"

int
nbd_unlocked_aio_get_fd (struct nbd_handle *h)
{
  if (h->sock == NULL) {
    set_error (EINVAL, "connection is not in a known state");
    return -1;
  }
  return h->sock->ops->get_fd (h->sock);
}

/* READY holds a batch of queued commands (or the rest of a send). */
static bool
batch_waiting (struct nbd_handle *h)
{
  return h->state == STATE_READY_START &&
    (h->cmds_to_issue || nbd_internal_send_pending (h));
}

/* What the state machine waits for in its current state, computed with
 * the lock held whenever the state is published: the state's own
 * direction (lib/states.c, from the events it accepts), except that
 * READY with a batch of queued commands waits to write as well.
 */
unsigned
nbd_internal_direction (struct nbd_handle *h)
{
  if (batch_waiting (h))
    return LIBNBD_AIO_DIRECTION_BOTH;
  return nbd_internal_state_direction (h->state);
}

/* A pure, lock-free read of what was published last. */
unsigned
nbd_unlocked_aio_get_direction (struct nbd_handle *h)
{
  return __atomic_load_n (&h->public_dir, __ATOMIC_ACQUIRE);
}

/* Send the batch of commands queued in READY (while others were in
 * flight): the caller is about to wait, or the socket is writable.
 */
int
nbd_internal_flush_batch (struct nbd_handle *h)
{
  int r;

  if (!batch_waiting (h))
    return 0;
  h->force_send = true;
  r = nbd_internal_run (h, CmdIssue);
  h->force_send = false;
  return r;
}

/* A new command is queued: while a thread polls with the lock
 * released, nobody would send a batch kept back for it, so send it
 * now.  A program in nbd_poll is woken, to see the new command; a
 * synchronous call's poll only if its poll set no longer fits (part of
 * the request still to write): otherwise its reply will wake it.
 */
void
nbd_internal_command_queued (struct nbd_handle *h)
{
  if (h->pollers == 0)
    return;
  if (nbd_internal_flush_batch (h) == -1)
    debug (h, "sending a new command: %s", nbd_get_error ());
  if (h->program_pollers > 0 ||
      nbd_internal_direction (h) & LIBNBD_AIO_DIRECTION_WRITE)
    nbd_internal_wake_pollers (h);
  nbd_internal_wake_waiters (h);
}

int
nbd_unlocked_aio_notify_read (struct nbd_handle *h)
{
  h->write_was_wanted = (nbd_unlocked_aio_get_direction (h) &
                         LIBNBD_AIO_DIRECTION_WRITE) != 0;
  h->recv_drained = false;
  if (nbd_internal_run (h, NotifyRead) == -1)
    return -1;
  /* Commands the callbacks queued leave now, together. */
  return nbd_internal_flush_batch (h);
}

/* An event loop that saw POLLIN and POLLOUT on one poll result calls
 * notify_read and then notify_write.  notify_read may have sent all
 * that was waiting, leaving READY with nothing to write; the write
 * notification the caller was asked for is then a no-op, not an error.
 */
int
nbd_unlocked_aio_notify_write (struct nbd_handle *h)
{
  bool was_wanted = h->write_was_wanted;

  h->write_was_wanted = false;
  if (batch_waiting (h))
    return nbd_internal_flush_batch (h);
  if (h->state == STATE_READY_START && was_wanted)
    return 0;
  return nbd_internal_run (h, NotifyWrite);
}

/* Wait for FDS: with the handle lock released where another thread
 * may use the handle meanwhile (waiters.c), with the wake-up eventfd
 * added to the set, else holding it.  *UNLOCKED says which.
 */
static int
wait_for_fds (struct nbd_handle *h, struct pollfd *fds, int nfds,
              int timeout, bool program, bool *unlocked)
{
  int wake = nbd_internal_wake_fd (h), r;

  *unlocked = wake >= 0;
  if (*unlocked) {
    fds[nfds].fd = wake;
    fds[nfds].events = POLLIN;
    fds[nfds].revents = 0;
    r = nbd_internal_poll_unlocked (h, fds, nfds + 1, timeout, program);
    if (r > 0 && fds[nfds].revents)
      r--;                      /* waiters.c drains it */
    return r == 0 && fds[nfds].revents ? 1 : r;   /* woken: look again */
  }
  do
    r = poll (fds, nfds, timeout);
  while (r == -1 && errno == EINTR);
  return r;
}

/* Act on what poll said of the socket, in direction DIR. */
static int
notify_socket (struct nbd_handle *h, short revents, unsigned dir)
{
  if ((revents & (POLLIN | POLLHUP | POLLERR)) &&
      (dir & LIBNBD_AIO_DIRECTION_READ)) {
    if (nbd_unlocked_aio_notify_read (h) == -1)
      return -1;
  }
  else if ((revents & (POLLOUT | POLLHUP | POLLERR)) &&
           (dir & LIBNBD_AIO_DIRECTION_WRITE)) {
    if (nbd_unlocked_aio_notify_write (h) == -1)
      return -1;
  }
  /* Writes still pending after reading replies: try them now. */
  if ((revents & POLLOUT) && (revents & POLLIN) &&
      nbd_internal_is_state_ready (h->state) &&
      (nbd_internal_direction (h) & LIBNBD_AIO_DIRECTION_WRITE) &&
      nbd_unlocked_aio_notify_write (h) == -1)
    return -1;
  return 0;
}

/* One poll on the handle's socket (and FD, for poll2); PROGRAM: for
 * the program's nbd_poll, not a synchronous call's wait.
 */
static int
poll_common (struct nbd_handle *h, int fd, int timeout, bool program)
{
  struct pollfd fds[3];
  unsigned dir;
  int r, nfds = 1;
  bool unlocked = false;

  /* About to wait: whatever was queued goes out first. */
  if (nbd_internal_flush_batch (h) == -1)
    return -1;
  dir = nbd_internal_direction (h);

  if (h->sock == NULL || dir == 0) {
    set_error (EINVAL, "nothing to poll for in state %s",
               nbd_internal_state_short_string (h->state));
    return -1;
  }
  fds[0].fd = h->sock->ops->get_fd (h->sock);
  fds[0].events = ((dir & LIBNBD_AIO_DIRECTION_READ) ? POLLIN : 0) |
    ((dir & LIBNBD_AIO_DIRECTION_WRITE) ? POLLOUT : 0);
  fds[0].revents = 0;
  if (fd >= 0) {
    fds[1].fd = fd;
    fds[1].events = POLLIN;
    fds[1].revents = 0;
    nfds = 2;
  }
  /* Data already decrypted or read ahead: no need to wait. */
  if ((dir & LIBNBD_AIO_DIRECTION_READ) && !nbd_internal_ahead_empty (h))
    r = 1, fds[0].revents = POLLIN;
  else
    r = wait_for_fds (h, fds, nfds, timeout, program, &unlocked);
  if (r == -1)
    set_error (errno, "poll");
  else if (r > 0 && fds[0].revents) {
    /* Unlocked, another thread may have moved the handle on. */
    if (unlocked)
      dir = h->sock ? nbd_internal_direction (h) : 0;
    if (notify_socket (h, fds[0].revents, dir) == -1)
      r = -1;
  }
  if (unlocked)
    nbd_internal_wake_waiters (h);
  return r == -1 ? -1 : r > 0;
}

int
nbd_unlocked_poll (struct nbd_handle *h, int timeout)
{
  return poll_common (h, -1, timeout, true);
}

int
nbd_unlocked_poll2 (struct nbd_handle *h, int fd, int timeout)
{
  return poll_common (h, fd, timeout, true);
}

/* A synchronous call waits for its command (lib/commands.c). */
int
nbd_internal_poll_for_command (struct nbd_handle *h)
{
  return poll_common (h, -1, -1, false);
}

int
nbd_unlocked_aio_is_created (struct nbd_handle *h)
{
  return nbd_internal_is_state_created (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_connecting (struct nbd_handle *h)
{
  return nbd_internal_is_state_connecting
    (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_negotiating (struct nbd_handle *h)
{
  return nbd_internal_is_state_negotiating
    (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_ready (struct nbd_handle *h)
{
  return nbd_internal_is_state_ready (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_processing (struct nbd_handle *h)
{
  return nbd_internal_is_state_processing
    (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_dead (struct nbd_handle *h)
{
  return nbd_internal_is_state_dead (nbd_internal_get_public_state (h));
}

int
nbd_unlocked_aio_is_closed (struct nbd_handle *h)
{
  return nbd_internal_is_state_closed (nbd_internal_get_public_state (h));
}

const char *
nbd_unlocked_connection_state (struct nbd_handle *h)
{
  enum state s = nbd_internal_get_public_state (h);

  if (nbd_internal_is_state_created (s))
    return "created";
  if (nbd_internal_is_state_connecting (s))
    return "connecting";
  if (nbd_internal_is_state_negotiating (s))
    return "negotiating";
  if (nbd_internal_is_state_ready (s))
    return "ready";
  if (nbd_internal_is_state_processing (s))
    return "processing";
  if (nbd_internal_is_state_dead (s))
    return "dead";
  return "closed";
}
