/* io-server-killed.c: commands in flight fail when the server dies. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <sys/types.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define NR_CB 8                 /* reads with completion callbacks */
#define NR_PLAIN 4              /* reads without */

static int
completion_cb (void *user_data, int *error)
{
  int *err = user_data;

  if (*err != -1)
    FAIL ("completion callback called twice");
  *err = *error;
  return 0;
}

int
main (void)
{
  const struct bg_server *srv;
  struct nbd_handle *h;
  static char buf[NR_CB + NR_PLAIN][4096];
  int errs[NR_CB];
  int64_t cookies[NR_CB + NR_PLAIN];
  int i, loops, pending;
  time_t start;

  requires_program ("nbdkit");
  srv = bg_server_start ("--filter=delay memory size=1M rdelay=2");

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);

  for (i = 0; i < NR_CB; ++i) {
    errs[i] = -1;
    cookies[i] = nbd_aio_pread (h, buf[i], 4096, i * 4096,
                                (nbd_completion_callback) {
                                  .callback = completion_cb,
                                  .user_data = &errs[i] }, 0);
    CHECK (cookies[i] > 0);
  }
  for (; i < NR_CB + NR_PLAIN; ++i) {
    cookies[i] = nbd_aio_pread (h, buf[i], 4096, i * 4096,
                                NBD_NULL_COMPLETION, 0);
    CHECK (cookies[i] > 0);
  }
  /* Make sure the requests are on the wire before the server dies. */
  for (loops = 0; nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE;
       ++loops) {
    CHECK (loops < 100);
    CHECK (nbd_poll (h, 100) != -1);
  }
  CHECK (nbd_aio_in_flight (h) == NR_CB + NR_PLAIN);

  bg_server_kill ();

  /* Poll until every command has completed; nbd_poll fails once the
   * handle is dead, and that is fine.
   */
  start = time (NULL);
  for (loops = 0; ; ++loops) {
    pending = 0;
    for (i = 0; i < NR_CB; ++i)
      if (errs[i] == -1)
        pending++;
    if (pending == 0 && nbd_aio_in_flight (h) == 0)
      break;
    if (loops > 100 || time (NULL) - start > 10)
      FAIL ("%d commands still pending after the server died", pending);
    if (nbd_aio_is_dead (h) || nbd_aio_is_closed (h))
      break;
    nbd_poll (h, 1000);
  }
  CHECK (nbd_aio_is_dead (h) || nbd_aio_is_closed (h));
  CHECK (nbd_aio_in_flight (h) == 0);

  for (i = 0; i < NR_CB; ++i) {
    if (errs[i] == -1)
      FAIL ("completion callback of command %d never ran", i);
    if (errs[i] == 0)
      FAIL ("command %d reported success after the server died", i);
    /* Each is reported once, as a failure. */
    CHECK (nbd_aio_command_completed (h, cookies[i]) == -1);
    CHECK (nbd_aio_command_completed (h, cookies[i]) != 1);
  }
  for (; i < NR_CB + NR_PLAIN; ++i) {
    CHECK (nbd_aio_command_completed (h, cookies[i]) == -1);
    CHECK (nbd_get_errno () != 0);
  }

  /* New commands fail at once, with a message naming the call. */
  CHECK (nbd_pread (h, buf[0], 512, 0, 0) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (strncmp (nbd_get_error (), "nbd_pread: ", 11) == 0);
  CHECK (nbd_aio_pread (h, buf[0], 512, 0, NBD_NULL_COMPLETION, 0) == -1);
  CHECK (strncmp (nbd_get_error (), "nbd_aio_pread: ", 15) == 0);
  CHECK (nbd_poll (h, 0) == -1);

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
