/* basic-server.h: run nbdkit on a socket the test made, for basic-*.c. */
#ifndef BASIC_SERVER_H
#define BASIC_SERVER_H

/* The test creates the listening socket itself (Unix in a mkdtemp
 * directory, or TCP on loopback port 0) and hands it to nbdkit with
 * systemd socket activation (LISTEN_PID/LISTEN_FDS, fd 3).  So there is
 * no race on a port and no waiting for the server: connections queue in
 * the backlog until nbdkit accepts them.  stop_server runs at exit.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <dirent.h>
#include <sys/stat.h>

#include <libnbd.h>

#include "test-common.h"

#define MAX_SERVER_ARGS 64

static pid_t server_pid = -1;
static char server_dir[64];
static char server_sock[128];

/* Remove PATH and, if it is a directory, all under it. */
static inline void
remove_tree (const char *path)
{
  struct stat st;
  DIR *dir;
  struct dirent *d;
  char sub[512];

  if (lstat (path, &st) == -1)
    return;
  if (S_ISDIR (st.st_mode) && (dir = opendir (path)) != NULL) {
    while ((d = readdir (dir)) != NULL) {
      if (strcmp (d->d_name, ".") == 0 || strcmp (d->d_name, "..") == 0)
        continue;
      if ((size_t) snprintf (sub, sizeof sub, "%s/%s", path, d->d_name)
          < sizeof sub)
        remove_tree (sub);
    }
    closedir (dir);
  }
  remove (path);
}

/* Kill the server and remove its socket and directory, with whatever
 * else the test put there (scripts, keys, oddly named sockets).
 */
static inline void
stop_server (void)
{
  if (server_pid > 0) {
    kill (server_pid, SIGTERM);
    waitpid (server_pid, NULL, 0);
    server_pid = -1;
  }
  if (server_sock[0]) {
    unlink (server_sock);
    server_sock[0] = '\0';
  }
  if (server_dir[0]) {
    remove_tree (server_dir);
    server_dir[0] = '\0';
  }
}

/* Make a private directory for sockets, removed at exit. */
static inline const char *
make_server_dir (void)
{
  strcpy (server_dir, "/tmp/basic-XXXXXX");
  if (mkdtemp (server_dir) == NULL) {
    perror ("mkdtemp");
    exit (EXIT_FAILURE);
  }
  atexit (stop_server);
  return server_dir;
}

/* The address of the Unix socket at PATH. */
static inline struct sockaddr_un
unix_address (const char *path)
{
  struct sockaddr_un addr;
  size_t len = strlen (path);

  if (len >= sizeof addr.sun_path) {
    fprintf (stderr, "%s: socket path too long\n", path);
    exit (EXIT_FAILURE);
  }
  memset (&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  memcpy (addr.sun_path, path, len + 1);
  return addr;
}

/* Return a socket connected to the server's Unix socket server_sock. */
static inline int
connect_server_unix (void)
{
  struct sockaddr_un addr = unix_address (server_sock);
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);

  if (fd == -1 ||
      connect (fd, (struct sockaddr *) &addr, sizeof addr) == -1) {
    perror ("connect");
    exit (EXIT_FAILURE);
  }
  return fd;
}

/* Return a listening Unix socket; its path is in server_sock. */
static inline int
listen_unix (void)
{
  struct sockaddr_un addr;
  int fd;

  make_server_dir ();
  snprintf (server_sock, sizeof server_sock, "%s/sock", server_dir);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  if (fd == -1) {
    perror ("socket");
    exit (EXIT_FAILURE);
  }
  addr = unix_address (server_sock);
  if (bind (fd, (struct sockaddr *) &addr, sizeof addr) == -1 ||
      listen (fd, SOMAXCONN) == -1) {
    perror ("bind/listen");
    exit (EXIT_FAILURE);
  }
  return fd;
}

/* Return a TCP socket bound to the loopback address of FAMILY (AF_INET
 * or AF_INET6) on a free port, written as a string to PORT.  Listen
 * only if DO_LISTEN.  Return -1 if the family is not available here.
 */
static inline int
bind_loopback (int family, char *port, size_t len, int do_listen)
{
  struct sockaddr_storage ss;
  struct sockaddr_in *sin = (struct sockaddr_in *) &ss;
  struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;
  socklen_t sslen;
  int fd;

  fd = socket (family, SOCK_STREAM, 0);
  if (fd == -1)
    return -1;
  memset (&ss, 0, sizeof ss);
  if (family == AF_INET) {
    sin->sin_family = AF_INET;
    sin->sin_addr.s_addr = htonl (INADDR_LOOPBACK);
    sslen = sizeof *sin;
  }
  else {
    sin6->sin6_family = AF_INET6;
    sin6->sin6_addr = in6addr_loopback;
    sslen = sizeof *sin6;
  }
  if (bind (fd, (struct sockaddr *) &ss, sslen) == -1) {
    close (fd);
    return -1;
  }
  if (do_listen && listen (fd, SOMAXCONN) == -1) {
    perror ("listen");
    exit (EXIT_FAILURE);
  }
  sslen = sizeof ss;
  if (getsockname (fd, (struct sockaddr *) &ss, &sslen) == -1) {
    perror ("getsockname");
    exit (EXIT_FAILURE);
  }
  snprintf (port, len, "%d",
            ntohs (family == AF_INET ? sin->sin_port : sin6->sin6_port));
  return fd;
}

/* Start "nbdkit -f --exit-with-parent ARGS..." serving on the listening
 * socket FD, which is closed in this process.
 */
static inline void
start_server (int fd, const char **args)
{
  const char *argv[MAX_SERVER_ARGS];
  size_t i, n = 0;

  argv[n++] = "nbdkit";
  argv[n++] = "-f";
  argv[n++] = "--exit-with-parent";
  for (i = 0; args[i] != NULL && n < MAX_SERVER_ARGS - 1; ++i)
    argv[n++] = args[i];
  argv[n] = NULL;

  if (server_dir[0] == '\0')
    atexit (stop_server);
  server_pid = fork ();
  if (server_pid == -1) {
    perror ("fork");
    exit (EXIT_FAILURE);
  }
  if (server_pid == 0) {
    char pid[32];

    if (fd == 3)
      fcntl (fd, F_SETFD, 0);
    else if (dup2 (fd, 3) == -1)
      _exit (EXIT_FAILURE);
    snprintf (pid, sizeof pid, "%d", (int) getpid ());
    setenv ("LISTEN_PID", pid, 1);
    setenv ("LISTEN_FDS", "1", 1);
    unsetenv ("LISTEN_FDNAMES");
    execvp ("nbdkit", (char **) argv);
    perror ("nbdkit");
    _exit (EXIT_FAILURE);
  }
  close (fd);
}

/* A new handle connected to URI, ready for commands. */
static inline struct nbd_handle *
connect_uri_ready (const char *uri)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  if (nbd_connect_uri (h, uri) == -1)
    FAIL ("nbd_connect_uri (%s): %s", uri, nbd_get_error ());
  CHECK (nbd_aio_is_ready (h) == 1);
  return h;
}

/* nbdkit's info plugin with mode=exportname serves, as the data, the
 * export name it was asked for: check that the server of H saw EXPORT.
 * WHAT names the connection in messages.
 */
static inline void
check_served_export (struct nbd_handle *h, const char *what,
                     const char *export)
{
  char buf[64];
  int64_t size = nbd_get_size (h);

  if (size != (int64_t) strlen (export) || size >= (int64_t) sizeof buf)
    FAIL ("%s: size %" PRIi64 ", expected %zu", what, size, strlen (export));
  memset (buf, 0, sizeof buf);
  if (size > 0)
    CHECK (nbd_pread (h, buf, size, 0, 0) == 0);
  if (memcmp (buf, export, size) != 0)
    FAIL ("%s: server saw export \"%.*s\"", what, (int) size, buf);
}

#endif /* BASIC_SERVER_H */
