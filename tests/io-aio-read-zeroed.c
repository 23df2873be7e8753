/* io-aio-read-zeroed.c: with pread_initialize on, an aio read's buffer
 * is zeroed by the call itself, as libnbd 1.22 does, and afterwards
 * written only by the server's data: not when the read fails later
 * (the server dies, or nbd_close drops it), since by then the program
 * may have reused or freed the buffer.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <signal.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

#define LEN 65536

static unsigned char buf[LEN];

static bool
all_bytes (unsigned char c)
{
  size_t i;

  for (i = 0; i < LEN; ++i)
    if (buf[i] != c)
      return false;
  return true;
}

static int
record_error (void *user_data, int *error)
{
  *(int *) user_data = *error;
  return 1;
}

/* A server that holds every read for 30 seconds: replies never come. */
static struct nbd_handle *
connect_slow (void)
{
  char *argv[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=delay",
                   "pattern", "size=1M", "rdelay=30", NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_get_pread_initialize (h) == 1);
  CHECK (nbd_connect_command (h, argv) == 0);
  return h;
}

static int64_t
start_read (struct nbd_handle *h, int *err)
{
  int64_t cookie;

  memset (buf, 0xaa, LEN);
  cookie = nbd_aio_pread (h, buf, LEN, 0,
                          (nbd_completion_callback) {
                            .callback = record_error, .user_data = err }, 0);
  CHECK (cookie > 0);
  if (!all_bytes (0))
    FAIL ("the buffer was not zeroed by nbd_aio_pread itself");
  return cookie;
}

/* The server dies: the read fails, its buffer untouched since. */
static void
read_fails_when_server_dies (void)
{
  struct nbd_handle *h = connect_slow ();
  int err = -1;

  start_read (h, &err);
  memset (buf, 0xbb, LEN);      /* the program reuses the buffer */
  CHECK (nbd_kill_subprocess (h, SIGKILL) == 0);
  while (err == -1 && nbd_poll (h, 10000) >= 0)
    ;
  CHECK (err == ENOTCONN);
  if (!all_bytes (0xbb))
    FAIL ("the failed read wrote its buffer after the call");
  nbd_close (h);
}

/* nbd_close drops the read: its completion runs, the buffer is left. */
static void
read_dropped_by_close (void)
{
  struct nbd_handle *h = connect_slow ();
  int err = -1;

  start_read (h, &err);
  memset (buf, 0xcc, LEN);
  CHECK (nbd_kill_subprocess (h, SIGKILL) == 0);
  nbd_close (h);
  CHECK (err == ENOTCONN);
  if (!all_bytes (0xcc))
    FAIL ("nbd_close wrote the buffer of the read it dropped");
}

int
main (void)
{
  read_fails_when_server_dies ();
  read_dropped_by_close ();
  printf ("io-aio-read-zeroed: OK\n");
  return EXIT_SUCCESS;
}
