/* io-aio-parallel.c: 64 aio commands in flight, completion and retiring. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_CMDS 64
#define BLOCK 65536

struct cmd {
  int64_t cookie;
  unsigned calls;               /* completion callback calls */
  int error;                    /* *error seen by the callback */
};

static int
completion_cb (void *user_data, int *error)
{
  struct cmd *c = user_data;

  c->calls++;
  c->error = *error;
  return 0;
}

static int
all_called (const struct cmd *cmds)
{
  int i;

  for (i = 0; i < NR_CMDS; ++i)
    if (cmds[i].calls == 0)
      return 0;
  return 1;
}

/* Poll until every callback ran; a bounded loop, one second a poll. */
static void
wait_all (struct nbd_handle *h, struct cmd *cmds)
{
  int loops;

  for (loops = 0; !all_called (cmds); ++loops) {
    if (loops > 10000)
      FAIL ("commands did not complete");
    CHECK (nbd_poll (h, 1000) != -1);
  }
}

/* Check each callback ran once without error, then retire the commands. */
static void
retire_all (struct nbd_handle *h, struct cmd *cmds)
{
  int i;

  CHECK (nbd_aio_in_flight (h) == 0);
  for (i = 0; i < NR_CMDS; ++i) {
    CHECK (cmds[i].calls == 1);
    CHECK (cmds[i].error == 0);
    CHECK (nbd_aio_command_completed (h, cmds[i].cookie) == 1);
    /* A retired cookie is never reported as completed again. */
    CHECK (nbd_aio_command_completed (h, cmds[i].cookie) != 1);
  }
}

int
main (void)
{
  struct nbd_handle *h;
  struct cmd cmds[NR_CMDS];
  unsigned char *wbuf, *rbuf;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=8M", NULL };
  int64_t cookies[16], done;
  int i, j, r, loops, max_in_flight;

  requires_program ("nbdkit");
  wbuf = malloc (NR_CMDS * BLOCK);
  rbuf = malloc (NR_CMDS * BLOCK);
  CHECK (wbuf != NULL && rbuf != NULL);
  for (i = 0; i < NR_CMDS * BLOCK; ++i)
    wbuf[i] = (i * 7 + i / 4096) & 0xff;

  h = connect_command_or_fail (args);
  CHECK (nbd_aio_in_flight (h) == 0);

  /* 64 writes with completion callbacks. */
  memset (cmds, 0, sizeof cmds);
  max_in_flight = 0;
  for (i = 0; i < NR_CMDS; ++i) {
    cmds[i].cookie =
      nbd_aio_pwrite (h, wbuf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                      (nbd_completion_callback) { .callback = completion_cb,
                                                  .user_data = &cmds[i] },
                      0);
    CHECK (cmds[i].cookie > 0);
    for (j = 0; j < i; ++j)
      CHECK (cmds[j].cookie != cmds[i].cookie);
    r = nbd_aio_in_flight (h);
    if (r > max_in_flight)
      max_in_flight = r;
  }
  /* Nobody polled yet, so nothing can have been retired. */
  CHECK (max_in_flight == NR_CMDS);
  wait_all (h, cmds);
  retire_all (h, cmds);

  /* 64 reads of the same blocks, in reverse order. */
  memset (cmds, 0, sizeof cmds);
  memset (rbuf, 0, NR_CMDS * BLOCK);
  for (i = NR_CMDS - 1; i >= 0; --i) {
    cmds[i].cookie =
      nbd_aio_pread (h, rbuf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                     (nbd_completion_callback) { .callback = completion_cb,
                                                 .user_data = &cmds[i] },
                     0);
    CHECK (cmds[i].cookie > 0);
  }
  CHECK (nbd_aio_in_flight (h) == NR_CMDS);
  wait_all (h, cmds);
  retire_all (h, cmds);
  if (memcmp (rbuf, wbuf, NR_CMDS * BLOCK) != 0)
    FAIL ("data read back differs from data written");

  /* Commands without callbacks: found with peek, retired exactly once. */
  memset (rbuf, 0, NR_CMDS * BLOCK);
  for (i = 0; i < 16; ++i) {
    cookies[i] = nbd_aio_pread (h, rbuf + i * BLOCK, BLOCK,
                                (uint64_t) i * BLOCK,
                                NBD_NULL_COMPLETION, 0);
    CHECK (cookies[i] > 0);
  }
  for (i = 0, loops = 0; i < 16; ) {
    if (++loops > 100000)
      FAIL ("commands without callbacks did not complete");
    done = nbd_aio_peek_command_completed (h);
    if (done == 0) {
      CHECK (nbd_poll (h, 1000) != -1);
      continue;
    }
    CHECK (done > 0);
    for (j = 0; j < 16; ++j)
      if (cookies[j] == done)
        break;
    if (j == 16)
      FAIL ("peek returned unknown cookie %lld", (long long) done);
    CHECK (nbd_aio_command_completed (h, done) == 1);
    CHECK (nbd_aio_command_completed (h, done) != 1);
    cookies[j] = 0;
    i++;
  }
  if (memcmp (rbuf, wbuf, 16 * BLOCK) != 0)
    FAIL ("data read without callbacks differs");

  /* Nothing in flight: peek fails, and a cookie never issued is not
   * reported as completed.
   */
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_aio_peek_command_completed (h) == -1);
  CHECK (nbd_get_errno () == EINVAL);
  CHECK (nbd_aio_command_completed (h, 1000000) != 1);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  free (wbuf);
  free (rbuf);
  exit (EXIT_SUCCESS);
}
