/* io-threads-sync-disconnect.c: nbd_aio_disconnect, then nbd_shutdown,
 * from one thread while three others wait in synchronous nbd_pread
 * calls on the same handle (issue 40 point 1).
 *
 * The server holds each read for a second, and drops the requests it
 * holds when NBD_CMD_DISC arrives.  On libnbd 1.22 the disconnect
 * waits for the lock until the reads have returned, so they succeed;
 * ours must likewise send NBD_CMD_DISC only after them: each read
 * succeeds with its data, the disconnect succeeds, a read after it
 * fails as after NBD_CMD_DISC, and the handle ends closed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define READERS 3
#define LEN 4096
#define HANG_SECONDS 60         /* the alarm turns a hang into a failure */

static struct nbd_handle *h;

struct reader {
  pthread_t thread;
  uintptr_t id;
  int r;
  char error[256];
};

static void *
read_once (void *arg)
{
  struct reader *rd = arg;
  unsigned char buf[LEN];
  size_t i;

  rd->r = nbd_pread (h, buf, LEN, rd->id * LEN, 0);
  if (rd->r == -1)
    snprintf (rd->error, sizeof rd->error, "%s", nbd_get_error ());
  for (i = 0; rd->r == 0 && i < LEN; ++i)
    if (buf[i] != 'a' + rd->id)
      break;
  if (rd->r == 0 && i < LEN) {
    rd->r = -1;
    snprintf (rd->error, sizeof rd->error, "wrong data");
  }
  return NULL;
}

/* Connect, write each reader's block, start the readers and wait
 * until the first request has reached the server (READS already read
 * before), and a little more for the others to be waiting too.
 */
static void
start_readers (const struct bg_server *srv, struct reader *rd, int reads)
{
  struct timespec ts = { 0, 200000000 };
  static unsigned char buf[LEN]; /* static: an ASan frame would pass 5000 */
  uintptr_t i;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);
  for (i = 0; i < READERS; ++i) {
    memset (buf, 'a' + i, LEN);
    CHECK (nbd_pwrite (h, buf, LEN, i * LEN, 0) == 0);
  }
  for (i = 0; i < READERS; ++i) {
    rd[i].id = i;
    CHECK (pthread_create (&rd[i].thread, NULL, read_once, &rd[i]) == 0);
  }
  bg_server_wait_log ("Read", reads + 1);
  nanosleep (&ts, NULL);
}

static void
join_readers (struct reader *rd, const char *how)
{
  int i;

  for (i = 0; i < READERS; ++i) {
    CHECK (pthread_join (rd[i].thread, NULL) == 0);
    if (rd[i].r != 0)
      FAIL ("%s: reader %d: %s", how, i, rd[i].error);
  }
}

int
main (void)
{
  const struct bg_server *srv;
  struct reader rd[READERS];
  char buf[512];

  requires_program ("nbdkit");
  srv = bg_server_start_with ("--filter=delay memory size=1M rdelay=1",
                              true);
  bg_server_alarm (HANG_SECONDS);

  /* nbd_aio_disconnect: returns once the reads are done. */
  start_readers (srv, rd, 0);
  CHECK (nbd_aio_disconnect (h, 0) == 0);
  join_readers (rd, "nbd_aio_disconnect");
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (EINVAL,
               "nbd_pread: cannot request more commands after NBD_CMD_DISC");
  CHECK (nbd_aio_disconnect (h, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_disconnect: cannot request more commands");
  while (!nbd_aio_is_closed (h) && !nbd_aio_is_dead (h))
    CHECK (nbd_poll (h, 1000) != -1);
  CHECK (nbd_aio_is_closed (h));
  nbd_close (h);

  /* nbd_shutdown: the same, and the handle is closed when it returns. */
  start_readers (srv, rd, READERS);
  CHECK (nbd_shutdown (h, 0) == 0);
  join_readers (rd, "nbd_shutdown");
  CHECK (nbd_aio_is_closed (h));
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: invalid state: CLOSED");
  nbd_close (h);
  alarm (0);
  return EXIT_SUCCESS;
}
