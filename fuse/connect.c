/* connect.c: open one connection to the server in the chosen mode. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbdfuse.h"

/* A subprocess or a passed socket can be connected to once only:
 * that is what both more connections and reconnecting need.
 */
bool
mode_allows_multi_conn (enum mode mode)
{
  return mode_can_dial_again (mode);
}

bool
mode_can_dial_again (enum mode mode)
{
  switch (mode) {
  case MODE_URI:
  case MODE_TCP:
  case MODE_UNIX:
  case MODE_VSOCK:
    return true;
  case MODE_SQUARE_BRACKET:
  case MODE_SOCKET_ACTIVATION:
  case MODE_COMMAND:
  case MODE_FD:
    return false;
  }
  return false;
}

/* A decimal number in [0, MAX], or exit with an error naming WHAT. */
static unsigned long
parse_number (const char *what, const char *s, unsigned long max)
{
  char *end;
  unsigned long n;

  errno = 0;
  n = strtoul (s, &end, 10);
  if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || n > max) {
    fprintf (stderr, "nbdfuse: could not parse %s: '%s'\n", what, s);
    exit (EXIT_FAILURE);
  }
  return n;
}

static int
connect_by_mode (struct nbd_handle *h, enum mode mode, char **args)
{
  switch (mode) {
  case MODE_URI:
    return nbd_connect_uri (h, args[0]);
  case MODE_SQUARE_BRACKET:
  case MODE_SOCKET_ACTIVATION:
    return nbd_connect_systemd_socket_activation (h, args);
  case MODE_COMMAND:
    return nbd_connect_command (h, args);
  case MODE_FD:
    return nbd_connect_socket (h, parse_number ("file descriptor",
                                                args[0], INT_MAX));
  case MODE_TCP:
    return nbd_connect_tcp (h, args[0], args[1]);
  case MODE_UNIX:
    return nbd_connect_unix (h, args[0]);
  case MODE_VSOCK:
    return nbd_connect_vsock (h,
                              parse_number ("vsock CID", args[0], UINT32_MAX),
                              parse_number ("vsock port", args[1],
                                            UINT32_MAX));
  }
  return -1;
}

/* Only the modes that can dial again (mode_can_dial_again). */
static int
aio_connect_by_mode (struct nbd_handle *h, enum mode mode, char **args)
{
  switch (mode) {
  case MODE_URI:
    return nbd_aio_connect_uri (h, args[0]);
  case MODE_TCP:
    return nbd_aio_connect_tcp (h, args[0], args[1]);
  case MODE_UNIX:
    return nbd_aio_connect_unix (h, args[0]);
  case MODE_VSOCK:
    return nbd_aio_connect_vsock (h,
                                  parse_number ("vsock CID", args[0],
                                                UINT32_MAX),
                                  parse_number ("vsock port", args[1],
                                                UINT32_MAX));
  default:
    abort ();                   /* main.c refused --reconnect */
  }
}

/* Connect, but give up at DEADLINE (see reconnect_wait_connected). */
static int
connect_until (struct nbd_handle *h, enum mode mode, char **args,
               double deadline, char *why, size_t len)
{
  int r = aio_connect_by_mode (h, mode, args);

  if (r == 0)
    r = reconnect_wait_connected (h, deadline);
  if (r == 0)
    return 0;
  if (r == -2) {
    snprintf (why, len, "the server did not complete the handshake "
              "in time");
    return -1;
  }
  if (nbd_get_errno () == 0) {
    snprintf (why, len, "the handshake failed");
    return -1;
  }
  snprintf (why, len, "%s", nbd_get_error ());
  return -1;
}

/* A new handle connected to the server, or NULL with the library's
 * error in WHY (LEN bytes).  ARGS are the words after the mode,
 * NULL-terminated.  DEADLINE, if not 0, is when to give up.
 */
struct nbd_handle *
dial_server (enum mode mode, char **args, double deadline,
             char *why, size_t len)
{
  int r;

  struct nbd_handle *h = nbd_create ();

  if (h == NULL) {
    snprintf (why, len, "%s", nbd_get_error ());
    return NULL;
  }
  /* Without -v, LIBNBD_DEBUG=1 in the environment still works. */
  if (nf.verbose)
    nbd_set_debug (h, true);
  /* As libnbd's nbdfuse: ?tls-psk-file= and the like may be used. */
  nbd_set_uri_allow_local_file (h, true);
  if (deadline > 0)
    r = connect_until (h, mode, args, deadline, why, len);
  else if ((r = connect_by_mode (h, mode, args)) == -1)
    snprintf (why, len, "%s", nbd_get_error ());
  if (r == -1) {
    nbd_close (h);
    return NULL;
  }
  /* A peer that vanishes silently is found even when idle. */
  if (nf.policy.window > 0)
    reconnect_keepalive (h);
  return h;
}

/* As dial_server, but exit with the error: the first connections. */
struct nbd_handle *
connect_server (enum mode mode, char **args)
{
  char why[512];
  struct nbd_handle *h = dial_server (mode, args, 0, why, sizeof why);

  if (h == NULL) {
    fprintf (stderr, "nbdfuse: %s\n", why);
    exit (EXIT_FAILURE);
  }
  return h;
}
