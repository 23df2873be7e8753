/* basic-connect-uri-ssh.c: nbd+ssh:// and nbds+ssh:// URIs through a
 * fake ssh on PATH, and URIs that try to make ssh read an option.
 *
 * The fake ssh records its arguments, then runs the remote command
 * here with sh -c, as the remote shell would; its nc is this program
 * again (--nc -U SOCKET), bridging stdin and stdout to nbdkit.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

#define PSK_USER "alice"
#define PSK_KEY "0123456789abcdef0123456789abcdef"

static char argv_log[256];      /* what the fake ssh was given */
static struct nbd_handle *open_h; /* closed at exit, before the server */
static char marker[256];        /* what an injected command would make */

/* Copy what one fd has to the other; false at end of file. */
static int
pump (int from, int to)
{
  static char buf[65536];      /* one thread: no need for the stack */
  ssize_t n = read (from, buf, sizeof buf), w;
  char *p = buf;

  if (n <= 0)
    return 0;
  while (n > 0) {
    w = write (to, p, n);
    if (w <= 0)
      exit (EXIT_FAILURE);
    p += w;
    n -= w;
  }
  return 1;
}

/* "nc -U SOCKET": stdin to the socket, the socket to stdout. */
static int
run_nc (int argc, char **argv)
{
  struct pollfd fds[2];
  int sock;

  if (argc != 4 || strcmp (argv[2], "-U") != 0) {
    fprintf (stderr, "fake nc: only -U SOCKET is supported\n");
    return EXIT_FAILURE;
  }
  snprintf (server_sock, sizeof server_sock, "%s", argv[3]);
  sock = connect_server_unix ();
  fds[0].fd = 0;
  fds[1].fd = sock;
  fds[0].events = fds[1].events = POLLIN;
  for (;;) {
    if (poll (fds, 2, -1) == -1)
      return EXIT_FAILURE;
    if (fds[1].revents && !pump (sock, 1))
      return EXIT_SUCCESS;
    if (fds[0].revents && fds[0].fd >= 0 && !pump (0, sock)) {
      shutdown (sock, SHUT_WR);
      fds[0].fd = -1;
    }
  }
}

static void
write_file (const char *path, const char *text, mode_t mode)
{
  FILE *fp = fopen (path, "w");

  if (fp == NULL || fputs (text, fp) == EOF || fclose (fp) == EOF ||
      chmod (path, mode) == -1) {
    perror (path);
    exit (EXIT_FAILURE);
  }
}

/* DIR/bin/ssh, first on PATH. */
static void
make_fake_ssh (const char *dir)
{
  static char self[256], bin[256], path[4096], script[2048];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);

  if (n <= 0)
    FAIL ("readlink /proc/self/exe");
  self[n] = '\0';
  snprintf (bin, sizeof bin, "%s/bin", dir);
  CHECK (mkdir (bin, 0700) == 0);
  snprintf (script, sizeof script,
            "#!/bin/sh\n"
            "printf '%%s\\n' \"$@\" > '%s'\n"
            "while [ $# -gt 0 ]; do\n"
            "  case $1 in\n"
            "    -p|-o) shift 2 ;;\n"
            "    -C) shift ;;\n"
            "    --) shift; break ;;\n"
            "    -*) echo \"fake ssh: option $1\" >&2; exit 255 ;;\n"
            "    *) break ;;\n"
            "  esac\n"
            "done\n"
            "shift\n"
            "exec sh -c \"nc () { exec '%s' --nc \\\"\\$@\\\"; }; $*\"\n",
            argv_log, self);
  snprintf (path, sizeof path, "%s/ssh", bin);
  write_file (path, script, 0700);
  snprintf (path, sizeof path, "%s:%s", bin, getenv ("PATH"));
  setenv ("PATH", path, 1);
}

/* The fake ssh's arguments, one per line, or "" if it never ran. */
static const char *
ssh_argv (void)
{
  static char buf[4096];
  FILE *fp = fopen (argv_log, "r");
  size_t n = 0;

  if (fp) {
    n = fread (buf, 1, sizeof buf - 1, fp);
    fclose (fp);
  }
  buf[n] = '\0';
  return buf;
}

static void
expect_argv (const char *uri, const char *want)
{
  if (strcmp (ssh_argv (), want) != 0)
    FAIL ("%s: ssh ran with\n%s\nexpected\n%s", uri, ssh_argv (), want);
  unlink (argv_log);
}

/* nbdkit stops only once its clients have gone, and a handle left
 * open by a failed check keeps one through the fake nc.
 */
static void
close_open_handle (void)
{
  if (open_h)
    nbd_close (open_h);
  open_h = NULL;
}

/* Connect to URI, check the export the server saw, the TLS user and
 * the arguments ssh ran with.  Then nbd_get_uri must give WANT_URI,
 * which connects the same way.
 */
static void
check_ssh (const char *uri, const char *export, const char *user,
           const char *want_argv, const char *want_uri, int tls)
{
  struct nbd_handle *h = open_h = nbd_create ();
  char *u, *s;

  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_local_file (h, true) == 0);
  if (nbd_connect_uri (h, uri) == -1)
    FAIL ("nbd_connect_uri (%s): %s", uri, nbd_get_error ());
  expect_argv (uri, want_argv);
  check_served_export (h, uri, export);
  CHECK (nbd_get_tls_negotiated (h) == tls);
  s = nbd_get_tls_username (h);
  CHECK (s != NULL && strcmp (s, user) == 0);
  free (s);
  u = nbd_get_uri (h);
  CHECK (u != NULL);
  if (strcmp (u, want_uri) != 0)
    FAIL ("%s: nbd_get_uri gave %s, expected %s", uri, u, want_uri);
  close_open_handle ();
  if (strcmp (uri, want_uri) != 0)
    check_ssh (want_uri, export, user, want_argv, want_uri, tls);
  free (u);
}

/* URI must fail with ERR before ssh runs. */
static void
refused (const char *uri, uint32_t transports, int err)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_uri_allow_transports (h, transports) == 0);
  if (nbd_connect_uri (h, uri) != -1)
    FAIL ("nbd_connect_uri (%s) succeeded", uri);
  CHECK_ERROR (err, "nbd_connect_uri: ");
  nbd_close (h);
  if (*ssh_argv ())
    FAIL ("%s: ssh ran with\n%s", uri, ssh_argv ());
  if (access (marker, F_OK) == 0)
    FAIL ("%s: the injected command ran", uri);
}

int
main (int argc, char **argv)
{
  const uint32_t all = LIBNBD_ALLOW_TRANSPORT_MASK;
  static char uri[1024], want[1024], want_argv[1024];
  static char psk[256], psk_arg[300], odd[256];
  const char *args[] = { "--tls=on", psk_arg, "info", "mode=exportname",
                         NULL };
  struct nbd_handle *h;
  int fd;

  if (argc > 1 && strcmp (argv[1], "--nc") == 0)
    return run_nc (argc, argv);

  requires_program ("nbdkit");
  setenv ("LOGNAME", "carol", 1);
  fd = listen_unix ();
  snprintf (argv_log, sizeof argv_log, "%s/argv", server_dir);
  snprintf (marker, sizeof marker, "%s/PWNED", server_dir);
  snprintf (psk, sizeof psk, "%s/keys.psk", server_dir);
  snprintf (psk_arg, sizeof psk_arg, "--tls-psk=%s", psk);
  write_file (psk, PSK_USER ":" PSK_KEY "\n", 0600);
  make_fake_ssh (server_dir);
  start_server (fd, args);
  atexit (close_open_handle);

  /* Allowed by default; the default port is 22. */
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/?socket=%s", server_sock);
  snprintf (want_argv, sizeof want_argv,
            "-p\n22\n--\nlocalhost\nnc\n-U\n%s\n", server_sock);
  snprintf (want, sizeof want, "nbd+ssh://localhost:22/?socket=%s",
            server_sock);
  check_ssh (uri, "", "carol", want_argv, want, 0);

  /* compress=true: ssh -C, and written back. */
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/?socket=%s&compress=yes",
            server_sock);
  snprintf (want_argv, sizeof want_argv,
            "-C\n-p\n22\n--\nlocalhost\nnc\n-U\n%s\n", server_sock);
  snprintf (want, sizeof want, "nbd+ssh://localhost:22/?socket=%s"
            "&compress=true", server_sock);
  check_ssh (uri, "", "carol", want_argv, want, 0);

  /* A user (ssh's and TLS's, as in libnbd 1.24), a port, an export. */
  snprintf (uri, sizeof uri,
            "NBD+SSH://bob@localhost:2222/a%%20b?socket=%s", server_sock);
  snprintf (want_argv, sizeof want_argv,
            "-p\n2222\n-o\nUser=bob\n--\nlocalhost\nnc\n-U\n%s\n",
            server_sock);
  snprintf (want, sizeof want, "nbd+ssh://bob@localhost:2222/a%%20b"
            "?socket=%s", server_sock);
  check_ssh (uri, "a b", "bob", want_argv, want, 0);

  /* A socket path the remote shell would split: quoted for it. */
  snprintf (odd, sizeof odd, "%s/a b;touch PWNED", server_dir);
  CHECK (symlink (server_sock, odd) == 0);
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/x?socket=%s"
            "/a%%20b%%3Btouch%%20PWNED", server_dir);
  snprintf (want_argv, sizeof want_argv,
            "-p\n22\n--\nlocalhost\nnc\n-U\n'%s'\n", odd);
  snprintf (want, sizeof want, "nbd+ssh://localhost:22/x?socket=%s"
            "/a%%20b%%3Btouch%%20PWNED", server_dir);
  check_ssh (uri, "x", "carol", want_argv, want, 0);
  CHECK (access (marker, F_OK) == -1);

  /* TLS through the tunnel. */
  snprintf (uri, sizeof uri, "nbds+ssh://" PSK_USER "@localhost/t"
            "?socket=%s&tls-psk-file=%s", server_sock, psk);
  snprintf (want_argv, sizeof want_argv,
            "-p\n22\n-o\nUser=" PSK_USER "\n--\nlocalhost\nnc\n-U\n%s\n",
            server_sock);
  snprintf (want, sizeof want, "nbds+ssh://" PSK_USER "@localhost:22/t"
            "?socket=%s&tls-psk-file=%s", server_sock, psk);
  check_ssh (uri, "t", PSK_USER, want_argv, want, 1);

  /* tls-username=: the TLS user, while bob logs in with ssh. */
  snprintf (uri, sizeof uri, "nbds+ssh://bob@localhost/t?socket=%s"
            "&tls-psk-file=%s&tls-username=" PSK_USER, server_sock, psk);
  snprintf (want_argv, sizeof want_argv,
            "-p\n22\n-o\nUser=bob\n--\nlocalhost\nnc\n-U\n%s\n",
            server_sock);
  snprintf (want, sizeof want, "nbds+ssh://bob@localhost:22/t?socket=%s"
            "&tls-username=" PSK_USER "&tls-psk-file=%s", server_sock, psk);
  check_ssh (uri, "t", PSK_USER, want_argv, want, 1);

  /* Without socket=, the server's default port on the remote side:
   * our fake nc cannot do that, so only the arguments are checked.
   */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, "nbd+ssh://example.com:10022/") == -1);
  expect_argv ("nbd+ssh://example.com:10022/",
               "-p\n10022\n--\nexample.com\nnc\nlocalhost\n10809\n");
  nbd_close (h);
  /* nbd-port=: nc's port, not ssh's. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_uri (h, "nbd+ssh://example.com:10022/"
                          "?nbd-port=10810&compress=1") == -1);
  expect_argv ("nbd+ssh://example.com:10022/?nbd-port=10810",
               "-C\n-p\n10022\n--\nexample.com\nnc\nlocalhost\n10810\n");
  nbd_close (h);

  /* Policy: EPERM before anything else, and ssh never runs. */
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/?socket=%s", server_sock);
  refused (uri, all & ~LIBNBD_ALLOW_TRANSPORT_SSH, EPERM);
  refused ("nbd+ssh://-oProxyCommand=x/", LIBNBD_ALLOW_TRANSPORT_TCP, EPERM);
  snprintf (uri, sizeof uri, "nbd+unix:///?socket=%s", server_sock);
  refused (uri, LIBNBD_ALLOW_TRANSPORT_SSH, EPERM);
  refused ("nbd+ssh:///", all, EINVAL);         /* no server */

  /* Anything ssh or nc could read as an option is refused. */
  snprintf (uri, sizeof uri,
            "nbd+ssh://-oProxyCommand=touch%%20%s/", marker);
  refused (uri, all, EINVAL);
  snprintf (uri, sizeof uri,
            "nbd+ssh://%%2DoProxyCommand=touch%%20%s/", marker);
  refused (uri, all, EINVAL);
  refused ("nbd+ssh://-F%2Fdev%2Fnull/", all, EINVAL);
  refused ("nbd+ssh://-/", all, EINVAL);
  snprintf (uri, sizeof uri, "nbd+ssh://-oProxyCommand=x@localhost/"
            "?socket=%s", server_sock);
  refused (uri, all, EINVAL);
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/?socket="
            "--sh-exec=touch%%20%s", marker);
  refused (uri, all, EINVAL);

  /* The user now reaches ssh (-o User=), nbd-port= the remote shell:
   * only a user name and a port number get there.
   */
  snprintf (uri, sizeof uri, "nbd+ssh://a$(id)@localhost/?socket=%s",
            server_sock);
  refused (uri, all, EINVAL);
  refused ("nbd+ssh://a%20b@localhost/", all, EINVAL);
  refused ("nbd+ssh://a%25r@localhost/", all, EINVAL);
  /* So does the host, where ssh may expand it in a ProxyCommand. */
  refused ("nbd+ssh://a$(id)/", all, EINVAL);
  refused ("nbd+ssh://a%20b/", all, EINVAL);
  refused ("nbd+ssh://a%60id%60/", all, EINVAL);
  snprintf (uri, sizeof uri, "nbd+ssh://localhost/"
            "?nbd-port=10809%%3Btouch%%20%s", marker);
  refused (uri, all, EINVAL);
  refused ("nbd+ssh://localhost/?nbd-port=99999", all, EINVAL);
  refused ("nbd+ssh://localhost/?nbd-port=", all, EINVAL);
  refused ("nbd+ssh://localhost/?compress=maybe", all, EINVAL);

  exit (EXIT_SUCCESS);
}
