/* diff-close.c: a server that closes the connection cleanly at a reply
 * boundary, with a command in flight: fake-server, and nbdkit 1.42's
 * eval plugin shutting down (status 4) or disconnecting hard (status
 * 6) under a write, over plain and TLS (diff.tap runs it on our
 * library and on libnbd 1.22.2).
 *
 * Usage: diff-close SCENARIO (see the table at the end).  The eval
 * scenarios need $DIFF_PEER_DIR/nbdkit (1.42, from
 * scripts/peer-libnbd-1.22.sh); without it they exit 77.
 */
#include <config.h>

#include "diff-common.h"

static char buf[4096];

static struct nbd_handle *
connect_fake (const char *tokens)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "read", (char *) tokens, NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server: %s", nbd_get_error ());
  return h;
}

static int cb_error = -1;

static int
record (void *user_data, int *error)
{
  cb_error = *error;
  return 1;
}

static bool
done (void *arg)
{
  return cb_error != -1;
}

/* An aio read the server answers by closing the connection. */
static void
fake_read (void)
{
  struct nbd_handle *h = connect_fake ("close");
  int64_t cookie;

  cookie = nbd_aio_pread (h, buf, sizeof buf, 0, (nbd_completion_callback) {
                            .callback = record }, 0);
  CHECK (cookie > 0);
  say_result ("the last nbd_poll", diff_poll_until (h, done, NULL));
  say ("completion error: %s", errname (cb_error));
  say_state ("then", h);
  say_result ("nbd_aio_command_completed",
              nbd_aio_command_completed (h, cookie));
  say_result ("nbd_poll after", nbd_poll (h, 0));
  say_result ("nbd_pread after", nbd_pread (h, buf, sizeof buf, 0, 0));
  say_result ("nbd_shutdown after", nbd_shutdown (h, 0));
  nbd_close (h);
}

/* The same with a synchronous read. */
static void
fake_sync (void)
{
  struct nbd_handle *h = connect_fake ("close");

  say_result ("nbd_pread", nbd_pread (h, buf, sizeof buf, 0, 0));
  say_state ("then", h);
  say_result ("nbd_pread after", nbd_pread (h, buf, sizeof buf, 0, 0));
  nbd_close (h);
}

/* Write a PSK file for the TLS scenarios; returns its name. */
static const char *
psk_file (void)
{
  static char name[] = "/tmp/diff-close-psk.XXXXXX";
  static const char line[] =
    "alice:8c1b4e8a0b7f3d2c6a9e5f4b3c2d1e0f8c1b4e8a0b7f3d2c6a9e5f4b3c2d1e0f\n";
  int fd = mkstemp (name);

  CHECK (fd != -1);
  CHECK (write (fd, line, strlen (line)) == (ssize_t) strlen (line));
  close (fd);
  return name;
}

/* nbdkit 1.42 -s eval, whose pwrite exits with STATUS. */
static struct nbd_handle *
connect_eval (int status, bool tls, const char **psk)
{
  const char *dir = getenv ("DIFF_PEER_DIR");
  static char nbdkit[4096], plugin[4096], pwrite[128], tls_psk[4200];
  char *args[16];
  struct nbd_handle *h;
  int n = 0;

  if (dir == NULL)
    dir = "/var/cache/libnbd-peers/debian13";
  snprintf (nbdkit, sizeof nbdkit, "%s/nbdkit", dir);
  snprintf (plugin, sizeof plugin,
            "%s/R/usr/lib/x86_64-linux-gnu/nbdkit/plugins/"
            "nbdkit-eval-plugin.so", dir);
  if (access (nbdkit, X_OK) != 0 || access (plugin, R_OK) != 0) {
    fprintf (stderr, "SKIP: nbdkit 1.42 is not unpacked in %s\n", dir);
    exit (SKIP_STATUS);
  }
  snprintf (pwrite, sizeof pwrite, "pwrite=cat >/dev/null; exit %d",
            status);
  args[n++] = nbdkit;
  args[n++] = (char *) "-s";
  args[n++] = (char *) "--exit-with-parent";
  if (tls) {
    *psk = psk_file ();
    snprintf (tls_psk, sizeof tls_psk, "--tls-psk=%s", *psk);
    args[n++] = (char *) "--tls=require";
    args[n++] = tls_psk;
  }
  args[n++] = plugin;
  args[n++] = (char *) "get_size=echo 1048576";
  args[n++] = (char *) "pread=head -c $3 /dev/zero";
  args[n++] = pwrite;
  args[n] = NULL;

  h = nbd_create ();
  CHECK (h != NULL);
  if (tls) {
    if (!nbd_supports_tls (h)) {
      fprintf (stderr, "SKIP: built without TLS\n");
      exit (SKIP_STATUS);
    }
    CHECK (nbd_set_tls (h, LIBNBD_TLS_REQUIRE) == 0);
    CHECK (nbd_set_tls_username (h, "alice") == 0);
    CHECK (nbd_set_tls_psk_file (h, *psk) == 0);
  }
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to nbdkit eval: %s", nbd_get_error ());
  return h;
}

/* Status 6: nbdkit drops the connection at once, no reply. */
static void
eval_disconnect (bool tls)
{
  const char *psk = NULL;
  struct nbd_handle *h = connect_eval (6, tls, &psk);

  say_result ("nbd_pwrite", nbd_pwrite (h, buf, sizeof buf, 0, 0));
  say_state ("then", h);
  say_result ("nbd_pread after", nbd_pread (h, buf, sizeof buf, 0, 0));
  say_result ("nbd_poll after", nbd_poll (h, 0));
  nbd_close (h);
  if (psk)
    unlink (psk);
}

/* Status 4: nbdkit shuts down; whether the write's reply leaves first
 * is a race (nbdkit-sh-plugin(3)), so either outcome prints the same.
 * Then the connection closes at a reply boundary.
 */
static void
eval_shutdown (bool tls)
{
  const char *psk = NULL;
  struct nbd_handle *h = connect_eval (4, tls, &psk);
  int r, idle = 0;

  r = nbd_pwrite (h, buf, sizeof buf, 0, 0);
  if (r == 0 || nbd_get_errno () == ENOTCONN)
    say ("nbd_pwrite: succeeded, or failed with ENOTCONN");
  else
    say_result ("nbd_pwrite", r);
  r = 0;
  while (!nbd_aio_is_closed (h) && !nbd_aio_is_dead (h)) {
    r = nbd_poll (h, 100);
    if (r == -1)
      break;
    if (r == 0 && ++idle >= 50)
      FAIL ("the connection did not close in 5 seconds");
  }
  say_result ("the last nbd_poll", r);
  say_state ("then", h);
  say_result ("nbd_pread after", nbd_pread (h, buf, sizeof buf, 0, 0));
  nbd_close (h);
  if (psk)
    unlink (psk);
}

static void eval_disconnect_plain (void) { eval_disconnect (false); }
static void eval_disconnect_tls (void) { eval_disconnect (true); }
static void eval_shutdown_plain (void) { eval_shutdown (false); }
static void eval_shutdown_tls (void) { eval_shutdown (true); }

static const struct diff_scenario scenarios[] = {
  { "fake-read", fake_read },
  { "fake-sync", fake_sync },
  { "eval-disconnect", eval_disconnect_plain },
  { "eval-shutdown", eval_shutdown_plain },
  { "eval-disconnect-tls", eval_disconnect_tls },
  { "eval-shutdown-tls", eval_shutdown_tls },
};

int
main (int argc, char *argv[])
{
  return diff_main (argc, argv, scenarios,
                    sizeof scenarios / sizeof scenarios[0]);
}
