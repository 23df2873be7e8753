/* io-notify-both.c: event loops shaped like real ones (nbdcopy's,
 * nbdkit's nbd plugin's, and one that notifies both directions from
 * one poll result) keep many small writes in flight; no notify call
 * may fail, and the data must read back.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <poll.h>

#include <libnbd.h>

#include "test-common.h"

#define BLOCK 512
#define NR_WRITES 4000
#define MAX_IN_FLIGHT 64
#define DISK_SIZE ((uint64_t) NR_WRITES * BLOCK)

enum shape { NBDCOPY, NBDKIT_PLUGIN, BOTH };

static const char *shape_name[] = { "nbdcopy", "nbdkit-plugin", "both" };

/* Times one poll result said both POLLIN and POLLOUT. */
static int both_ready;

/* The poll events for a direction. */
static short
events_of (unsigned dir)
{
  return ((dir & LIBNBD_AIO_DIRECTION_READ) ? POLLIN : 0) |
    ((dir & LIBNBD_AIO_DIRECTION_WRITE) ? POLLOUT : 0);
}

/* One round of poll(2) on the handle, then the notifications. */
static void
step (struct nbd_handle *h, enum shape shape)
{
  struct pollfd pfd = { .fd = nbd_aio_get_fd (h) };
  unsigned dir = nbd_aio_get_direction (h);
  int r;

  CHECK (pfd.fd >= 0);
  pfd.events = events_of (dir);
  CHECK (pfd.events != 0);
  r = poll (&pfd, 1, 5000);
  CHECK (r >= 0);
  if (r == 0)
    FAIL ("%s loop: poll timed out", shape_name[shape]);
  if ((pfd.revents & POLLIN) && (pfd.revents & POLLOUT))
    both_ready++;

  switch (shape) {
  case NBDCOPY:                 /* copy/multi-thread-copying.c */
    if (pfd.revents & (POLLIN | POLLHUP))
      CHECK (nbd_aio_notify_read (h) == 0);
    else if (pfd.revents & POLLOUT)
      CHECK (nbd_aio_notify_write (h) == 0);
    break;
  case NBDKIT_PLUGIN:           /* nbdkit plugins/nbd: direction again */
    dir = nbd_aio_get_direction (h);
    if ((dir & LIBNBD_AIO_DIRECTION_READ) && (pfd.revents & POLLIN))
      CHECK (nbd_aio_notify_read (h) == 0);
    else if ((dir & LIBNBD_AIO_DIRECTION_WRITE) && (pfd.revents & POLLOUT))
      CHECK (nbd_aio_notify_write (h) == 0);
    break;
  case BOTH:                    /* one poll result, both notifications */
    if (pfd.revents & POLLIN)
      CHECK (nbd_aio_notify_read (h) == 0);
    if (pfd.revents & POLLOUT)
      CHECK (nbd_aio_notify_write (h) == 0);
    break;
  }
}

static int
completion_cb (void *user_data, int *error)
{
  int *done = user_data;

  if (*error != 0)
    FAIL ("write failed with error %d", *error);
  (*done)++;
  return 1;
}

/* Write the whole disk in small blocks, keeping up to MAX_IN_FLIGHT
 * in flight and queueing more between polls, as a copying loop does.
 */
static void
write_all (struct nbd_handle *h, const unsigned char *data, enum shape shape)
{
  int issued = 0, done = 0, loops;

  for (loops = 0; done < NR_WRITES; ++loops) {
    if (loops > 10 * NR_WRITES)
      FAIL ("%s loop: writes did not finish (%d done)",
            shape_name[shape], done);
    while (issued < NR_WRITES && issued - done < MAX_IN_FLIGHT) {
      CHECK (nbd_aio_pwrite (h, data + (size_t) issued * BLOCK, BLOCK,
                             (uint64_t) issued * BLOCK,
                             (nbd_completion_callback) {
                               .callback = completion_cb,
                               .user_data = &done }, 0) > 0);
      issued++;
    }
    step (h, shape);
  }
  CHECK (nbd_aio_in_flight (h) == 0);
}

static void
run_shape (enum shape shape)
{
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=2000K", NULL };
  struct nbd_handle *h;
  unsigned char *data, *back;
  size_t i;

  data = malloc (DISK_SIZE);
  back = malloc (DISK_SIZE);
  CHECK (data != NULL && back != NULL);
  for (i = 0; i < DISK_SIZE; ++i)
    data[i] = (i * 31 + shape * 7 + 1) & 0xff;

  h = connect_command_or_fail (args);
  CHECK (nbd_get_size (h) == (int64_t) DISK_SIZE);
  write_all (h, data, shape);
  CHECK (nbd_pread (h, back, DISK_SIZE, 0, 0) == 0);
  if (memcmp (data, back, DISK_SIZE) != 0)
    FAIL ("%s loop: data read back differs", shape_name[shape]);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  free (data);
  free (back);
}

int
main (void)
{
  requires_program ("nbdkit");
  run_shape (NBDCOPY);
  run_shape (NBDKIT_PLUGIN);
  run_shape (BOTH);
  printf ("poll results with both POLLIN and POLLOUT: %d\n", both_ready);
  exit (EXIT_SUCCESS);
}
