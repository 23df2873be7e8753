/* poll-thread.h: a thread that drives one handle from its own poll(2)
 * loop, as an application's event loop would, while other threads
 * issue commands on the same handle.
 *
 * It never waits with the handle locked: the direction is a lock-free
 * read and only the notify calls lock, so the other threads can queue
 * commands while it sleeps in poll(2).  A command queued meanwhile may
 * change the direction, hence the short timeout, on ours as on 1.22:
 * the library wakes a thread in nbd_poll (io-poll-woken), but this is
 * the program's own poll(2) on the handle's fd, which nothing wakes
 * (ours adds no descriptor to it, as promised).  The timeout also lets
 * poll_thread_stop end a poll with nothing in flight.
 */
#ifndef POLL_THREAD_H
#define POLL_THREAD_H

#include <stdbool.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>

#include <libnbd.h>

struct poll_thread {
  struct nbd_handle *h;
  pthread_t thread;
  bool stop;                    /* atomic: set by poll_thread_stop */
  char error[256];              /* why it gave up, or "" */
};

/* Poll once and notify the handle of what poll saw.  Returns false on
 * an error, which is left in P->error.
 */
static inline bool
poll_thread_once (struct poll_thread *p, int fd)
{
  unsigned dir = nbd_aio_get_direction (p->h);
  struct pollfd pfd = { .fd = fd };

  if (dir & LIBNBD_AIO_DIRECTION_READ)
    pfd.events |= POLLIN;
  if (dir & LIBNBD_AIO_DIRECTION_WRITE)
    pfd.events |= POLLOUT;
  if (poll (&pfd, 1, 10) == -1) {
    if (errno == EINTR)
      return true;
    snprintf (p->error, sizeof p->error, "poll: %s", strerror (errno));
    return false;
  }
  if ((dir & LIBNBD_AIO_DIRECTION_READ) &&
      (pfd.revents & (POLLIN | POLLHUP | POLLERR)) &&
      nbd_aio_notify_read (p->h) == -1)
    goto notify_failed;
  /* The read may have sent what was waiting: ask again. */
  if ((pfd.revents & POLLOUT) &&
      (nbd_aio_get_direction (p->h) & LIBNBD_AIO_DIRECTION_WRITE) &&
      nbd_aio_notify_write (p->h) == -1)
    goto notify_failed;
  return true;

 notify_failed:
  /* Another thread's nbd_shutdown closing the handle is no failure. */
  if (nbd_aio_is_closed (p->h))
    return true;
  snprintf (p->error, sizeof p->error, "notify: %s", nbd_get_error ());
  return false;
}

static inline void *
poll_thread_run (void *arg)
{
  struct poll_thread *p = arg;
  int fd = nbd_aio_get_fd (p->h);

  if (fd == -1) {
    snprintf (p->error, sizeof p->error, "%s", nbd_get_error ());
    return NULL;
  }
  while (!__atomic_load_n (&p->stop, __ATOMIC_ACQUIRE) &&
         !nbd_aio_is_closed (p->h) && !nbd_aio_is_dead (p->h)) {
    if (!poll_thread_once (p, fd))
      break;
  }
  return NULL;
}

static inline int
poll_thread_start (struct poll_thread *p, struct nbd_handle *h)
{
  p->h = h;
  p->stop = false;
  p->error[0] = '\0';
  return pthread_create (&p->thread, NULL, poll_thread_run, p);
}

/* Stop the thread and wait for it; the caller then checks P->error. */
static inline int
poll_thread_stop (struct poll_thread *p)
{
  __atomic_store_n (&p->stop, true, __ATOMIC_RELEASE);
  return pthread_join (p->thread, NULL);
}

#endif /* POLL_THREAD_H */
