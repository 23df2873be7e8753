/* tls-hangup.c: a server that dies right after a reply: the reply is
 * good, and the end of the connection is a hangup, as in plaintext.
 *
 * tls-hangup plain|psk SOCKET PIDFILE [PSKFILE]
 *
 * The server (nbdkit with block status delayed, started by
 * tls-hangup.sh on SOCKET, its pid in PIDFILE) answers a read at once
 * and is killed before the client looks, block status still in
 * flight: one recv finds the reply and the end of the connection.
 * Under TLS that end is a TCP FIN with no close_notify
 * (GNUTLS_E_PREMATURE_TERMINATION), after which GnuTLS says only
 * GNUTLS_E_INVALID_SESSION: that must not become the error, which is
 * the server closing the connection (ECONNRESET) either way.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <sys/types.h>

#include <libnbd.h>

#include "test-common.h"

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

  nanosleep (&ts, NULL);
}

/* nbdkit writes its pid file in the background: wait for it. */
static pid_t
read_pid (const char *file)
{
  int i, pid = 0;

  for (i = 0; i < 100 && pid <= 0; ++i) {
    FILE *fp = fopen (file, "r");

    if (fp == NULL || fscanf (fp, "%d", &pid) != 1)
      pid = 0;
    if (fp)
      fclose (fp);
    if (pid <= 0)
      sleep_ms (50);
  }
  if (pid <= 0)
    FAIL ("no pid in %s", file);
  return pid;
}

static struct nbd_handle *
connect_to (const char *mode, const char *sock, const char *psk)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  if (strcmp (mode, "psk") == 0) {
    CHECK (nbd_set_tls (h, LIBNBD_TLS_REQUIRE) == 0);
    CHECK (nbd_set_tls_psk_file (h, psk) == 0);
    CHECK (nbd_set_tls_username (h, "alice") == 0);
  }
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_unix (h, sock) == 0);
  CHECK (nbd_get_tls_negotiated (h) == (strcmp (mode, "psk") == 0));
  return h;
}

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  (void) user_data; (void) metacontext; (void) offset; (void) entries;
  (void) nr_entries; (void) error;
  return 0;
}

static int
completion_cb (void *user_data, int *error)
{
  *(int *) user_data = *error;
  return 1;
}

int
main (int argc, char *argv[])
{
  static char buf[4096];
  struct nbd_handle *h;
  int64_t cookie;
  int bs_err = -1, r, loops;

  if (argc < 4)
    FAIL ("usage: tls-hangup plain|psk SOCKET PIDFILE [PSKFILE]");
  h = connect_to (argv[1], argv[2], argc > 4 ? argv[4] : NULL);
  /* A read nbdkit answers at once, block status it holds back. */
  cookie = nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0);
  CHECK (cookie > 0);
  CHECK (nbd_aio_block_status (h, 4096, 0,
                               (nbd_extent_callback) { .callback = extent_cb },
                               (nbd_completion_callback) {
                                 .callback = completion_cb,
                                 .user_data = &bs_err }, 0) > 0);
  /* Send them, reading nothing. */
  for (loops = 0; nbd_aio_get_direction (h) & LIBNBD_AIO_DIRECTION_WRITE;
       ++loops) {
    CHECK (loops < 100);
    CHECK (nbd_aio_notify_write (h) == 0);
    sleep_ms (10);
  }
  /* The server answers the read; then it dies, the reply unread. */
  sleep_ms (500);
  CHECK (kill (read_pid (argv[3]), SIGKILL) == 0);
  sleep_ms (200);
  while ((r = nbd_aio_command_completed (h, cookie)) == 0)
    CHECK (nbd_poll (h, 5000) == 1);
  if (r != 1)
    FAIL ("the read answered before the hangup failed: %s",
          nbd_get_error ());
  /* Then the end of the connection, at a reply boundary.  In plain
   * text that is a clean end, as in libnbd: the handle is CLOSED and
   * nbd_poll does not fail.  Over TLS the server died without a
   * close_notify: a broken stream, DEAD, as in libnbd.  Either way the
   * command still in flight fails with ENOTCONN.
   */
  while ((r = nbd_poll (h, 5000)) == 1 && bs_err == -1)
    ;
  fprintf (stderr, "%s: block status: errno %d, handle: %s\n", argv[1],
           bs_err, nbd_get_error ());
  if (strcmp (argv[1], "plain") == 0) {
    CHECK (r == 1);
    CHECK (nbd_aio_is_closed (h) == 1);
  }
  else {
    CHECK (r == -1);
    CHECK (nbd_aio_is_dead (h) == 1);
    CHECK (strstr (nbd_get_error (), "non-properly terminated") != NULL);
  }
  CHECK (bs_err == ENOTCONN);
  nbd_close (h);
  printf ("%s: OK\n", argv[1]);
  exit (EXIT_SUCCESS);
}
