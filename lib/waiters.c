/* waiters.c: several threads on one handle.  A thread waiting for its
 * synchronous command, or in nbd_poll, polls the socket with the
 * handle lock released, so other threads can issue their commands
 * meanwhile: N threads, N requests in flight.  One thread polls at a
 * time for the synchronous calls; the others wait on a condition
 * variable until a poll has handled what arrived.  An internal eventfd
 * wakes a poller when its poll set is out of date, or when another
 * thread (a program's nbd_poll or nbd_aio_notify_*) handled the reply
 * it waits for.  A wake-up stays readable until every thread that was
 * polling when it was written has come back from its poll: a thread
 * that released the lock but has not yet entered poll(2) must still
 * find it there, so neither it nor a poller that came later drains it.
 *
 * A synchronous call with a callback (nbd_pread_structured,
 * nbd_block_status...) must see its callbacks in its own thread, so it
 * runs exclusive: it waits until no thread is in an unlocked poll, and
 * holds the lock from issuing its command until it is done, as before.
 * Negotiation always polls with the lock held.
 *
 * This file is the bottom layer of that: who polls unlocked, who
 * waits, and how to wake them.  It calls nothing in poll.c or
 * commands.c; they call it (poll.c to poll unlocked, commands.c to
 * wait its turn).
 */
#include <config.h>

#include <stdint.h>
#include <unistd.h>
#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>

#include "internal.h"

static void
drain_wake_fd (struct nbd_handle *h)
{
  uint64_t v;

  if (read (h->wake_fd, &v, sizeof v) == -1 && errno != EAGAIN)
    debug (h, "reading the wake-up eventfd: %m");
}

/* The eventfd to add to a poll that releases the lock, or -1 if this
 * poll must keep it: negotiating (opt calls carry callbacks), or an
 * exclusive call under way.
 */
int
nbd_internal_wake_fd (struct nbd_handle *h)
{
  if (h->exclusive > 0 ||
      !(nbd_internal_is_state_ready (h->state) ||
        nbd_internal_is_state_processing (h->state)))
    return -1;
  if (h->wake_fd == -1)
    h->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  return h->wake_fd;            /* still -1 if eventfd failed */
}

/* poll(2) FDS with the handle lock released; errno is poll's.
 * PROGRAM: for nbd_poll, which a new command wakes.
 */
int
nbd_internal_poll_unlocked (struct nbd_handle *h, struct pollfd *fds,
                            int nfds, int timeout, bool program)
{
  uint64_t gen = h->wake_gen;
  int r, err;

  h->pollers++;
  h->program_pollers += program;
  pthread_mutex_unlock (&h->lock);
  do
    r = poll (fds, nfds, timeout);
  while (r == -1 && errno == EINTR);
  err = errno;
  pthread_mutex_lock (&h->lock);
  h->pollers--;
  h->program_pollers -= program;
  /* Polling when the last wake-up was written: one fewer to see it. */
  if (gen != h->wake_gen && --h->wake_unseen == 0)
    drain_wake_fd (h);
  errno = err;
  return r;
}

/* Make threads in an unlocked poll look again. */
void
nbd_internal_wake_pollers (struct nbd_handle *h)
{
  uint64_t one = 1;

  if (h->pollers == 0 || h->wake_fd == -1)
    return;
  if (write (h->wake_fd, &one, sizeof one) == -1) {
    debug (h, "writing the wake-up eventfd: %m");
    return;
  }
  h->wake_gen++;
  h->wake_unseen = h->pollers;
}

/* Tell the threads waiting for a poller that one poll is over. */
void
nbd_internal_wake_waiters (struct nbd_handle *h)
{
  if (h->waiters > 0)
    pthread_cond_broadcast (&h->wait_cond);
}

/* Another thread is polling: wait until it has handled a poll's worth
 * of replies (or given up polling), the lock released meanwhile.
 */
void
nbd_internal_wait_for_poller (struct nbd_handle *h)
{
  h->waiters++;
  pthread_cond_wait (&h->wait_cond, &h->lock);
  h->waiters--;
}

/* A synchronous call's command is done, but in another thread than
 * the one waiting for it: a program's nbd_aio_notify_* or nbd_poll
 * took the reply the waiter's own poll was woken for, or will never
 * see.  Wake it, wherever it waits.
 */
void
nbd_internal_sync_done_elsewhere (struct nbd_handle *h)
{
  nbd_internal_wake_pollers (h);
  nbd_internal_wake_waiters (h);
}

/* Before a synchronous call with callbacks issues its command: no
 * thread may be in an unlocked poll, where it could handle the reply
 * and call this call's callbacks in its own thread.
 */
void
nbd_internal_begin_exclusive (struct nbd_handle *h)
{
  h->exclusive++;
  while (h->pollers > 0) {
    nbd_internal_wake_pollers (h);
    nbd_internal_wait_for_poller (h);
  }
}

void
nbd_internal_end_exclusive (struct nbd_handle *h)
{
  h->exclusive--;
  nbd_internal_wake_waiters (h);
}
