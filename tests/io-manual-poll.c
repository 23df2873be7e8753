/* io-manual-poll.c: drive the handle with our own poll(2) loop. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <poll.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_CMDS 100
#define BLOCK 4096

/* One round of poll(2) on the handle's fd, in the direction it wants. */
static void
step (struct nbd_handle *h)
{
  struct pollfd fds[1];
  unsigned dir;
  int fd, r;

  fd = nbd_aio_get_fd (h);
  CHECK (fd >= 0);
  /* Read the direction afresh each time: it changes as commands queue. */
  dir = nbd_aio_get_direction (h);
  fds[0].fd = fd;
  fds[0].events = 0;
  fds[0].revents = 0;
  if (dir & LIBNBD_AIO_DIRECTION_READ)
    fds[0].events |= POLLIN;
  if (dir & LIBNBD_AIO_DIRECTION_WRITE)
    fds[0].events |= POLLOUT;
  CHECK (fds[0].events != 0);

  r = poll (fds, 1, 1000);
  CHECK (r >= 0);
  if (r == 0)
    return;
  if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) &&
      (dir & LIBNBD_AIO_DIRECTION_READ))
    CHECK (nbd_aio_notify_read (h) == 0);
  else if ((fds[0].revents & POLLOUT) &&
           (nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE))
    CHECK (nbd_aio_notify_write (h) == 0);
}

static int
completion_cb (void *user_data, int *error)
{
  int *calls = user_data;

  if (*error != 0)
    FAIL ("command failed with error %d", *error);
  (*calls)++;
  return 1;                     /* retire the command */
}

int
main (void)
{
  struct nbd_handle *h;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M", NULL };
  unsigned char *wbuf, *rbuf;
  int i, loops, writes_done = 0, reads_done = 0;

  requires_program ("nbdkit");
  wbuf = malloc (NR_CMDS * BLOCK);
  rbuf = calloc (NR_CMDS, BLOCK);
  CHECK (wbuf != NULL && rbuf != NULL);
  for (i = 0; i < NR_CMDS * BLOCK; ++i)
    wbuf[i] = (i * 13 + 5) & 0xff;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_aio_connect_command (h, args) == 0);
  for (loops = 0; nbd_aio_is_connecting (h); ++loops) {
    if (loops > 10000)
      FAIL ("handshake did not finish");
    step (h);
  }
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  /* Idle and connected, the handle only waits for the server. */
  CHECK (nbd_aio_get_direction (h) == LIBNBD_AIO_DIRECTION_READ);

  for (i = 0; i < NR_CMDS; ++i)
    CHECK (nbd_aio_pwrite (h, wbuf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                           (nbd_completion_callback) {
                             .callback = completion_cb,
                             .user_data = &writes_done }, 0) > 0);
  for (loops = 0; writes_done < NR_CMDS; ++loops) {
    if (loops > 100000)
      FAIL ("writes did not finish (%d done)", writes_done);
    step (h);
  }

  for (i = 0; i < NR_CMDS; ++i)
    CHECK (nbd_aio_pread (h, rbuf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                          (nbd_completion_callback) {
                            .callback = completion_cb,
                            .user_data = &reads_done }, 0) > 0);
  for (loops = 0; reads_done < NR_CMDS; ++loops) {
    if (loops > 100000)
      FAIL ("reads did not finish (%d done)", reads_done);
    step (h);
  }
  CHECK (nbd_aio_in_flight (h) == 0);
  if (memcmp (wbuf, rbuf, NR_CMDS * BLOCK) != 0)
    FAIL ("data read back differs");

  /* Disconnect the same way. */
  CHECK (nbd_aio_disconnect (h, 0) == 0);
  for (loops = 0; !nbd_aio_is_closed (h) && !nbd_aio_is_dead (h); ++loops) {
    if (loops > 10000)
      FAIL ("disconnect did not finish");
    step (h);
  }
  CHECK (nbd_aio_is_closed (h) == 1);

  nbd_close (h);
  free (wbuf);
  free (rbuf);
  exit (EXIT_SUCCESS);
}
