/* connect.c: the connect calls, synchronous and asynchronous. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <sys/un.h>
#include <sys/wait.h>
#ifdef HAVE_LINUX_VM_SOCKETS_H
#include <linux/vm_sockets.h>
#endif

#include "internal.h"

int
nbd_internal_connect_fd_nonblocking (int fd)
{
  int flags = fcntl (fd, F_GETFL);

  if (flags == -1 || fcntl (fd, F_SETFL, flags | O_NONBLOCK) == -1)
    return -1;
  return 0;
}

void
nbd_internal_close_socket (struct nbd_handle *h)
{
  if (h->sock) {
    h->sock->ops->close (h->sock);
    h->sock = NULL;
  }
  h->ahead_start = h->ahead_end = 0;
  h->gather_len = h->gather_sent = 0;
  h->big_payload = NULL;
  h->big_len = h->big_sent = 0;
}

/* Run the handle until connected (READY or NEGOTIATING in opt mode). */
static int
wait_until_connected (struct nbd_handle *h)
{
  while (nbd_internal_is_state_connecting (h->state)) {
    if (nbd_unlocked_poll (h, -1) == -1)
      return -1;
  }
  if (nbd_internal_is_state_ready (h->state) ||
      nbd_internal_is_state_processing (h->state) ||
      nbd_internal_is_state_negotiating (h->state))
    return 0;
  if (nbd_internal_is_state_closed (h->state)) {
    set_error (ENOTCONN, "connection closed during the handshake");
    return -1;
  }
  set_error (ENOTCONN, "connection is dead");
  return -1;
}

int
nbd_unlocked_aio_connect (struct nbd_handle *h,
                          const struct sockaddr *addr, socklen_t len)
{
  if (len > sizeof h->connaddr) {
    set_error (EINVAL, "socket address too long");
    return -1;
  }
  memcpy (&h->connaddr, addr, len);
  h->connaddr_len = len;
  return nbd_internal_run (h, CmdConnectSockAddr);
}

int
nbd_unlocked_aio_connect_unix (struct nbd_handle *h, const char *unixsocket)
{
  struct sockaddr_un sun = { .sun_family = AF_UNIX };
  size_t len = strlen (unixsocket);

  if (len == 0 || len >= sizeof sun.sun_path) {
    set_error (ENAMETOOLONG, "socket name too long: %s", unixsocket);
    return -1;
  }
  memcpy (sun.sun_path, unixsocket, len + 1);
  return nbd_unlocked_aio_connect (h, (struct sockaddr *) &sun, sizeof sun);
}

int
nbd_unlocked_aio_connect_vsock (struct nbd_handle *h, uint32_t cid,
                                uint32_t port)
{
#ifdef AF_VSOCK
  struct sockaddr_vm svm = {
    .svm_family = AF_VSOCK, .svm_cid = cid, .svm_port = port,
  };

  return nbd_unlocked_aio_connect (h, (struct sockaddr *) &svm, sizeof svm);
#else
  set_error (ENOTSUP, "AF_VSOCK is not supported");
  return -1;
#endif
}

int
nbd_unlocked_aio_connect_tcp (struct nbd_handle *h, const char *hostname,
                              const char *port)
{
  char *hcopy = strdup (hostname), *pcopy = strdup (port);

  if (hcopy == NULL || pcopy == NULL) {
    set_error (errno, "strdup");
    free (hcopy);
    free (pcopy);
    return -1;
  }
  free (h->hostname);
  free (h->port);
  h->hostname = hcopy;
  h->port = pcopy;
  return nbd_internal_run (h, CmdConnectTCP);
}

int
nbd_unlocked_aio_connect_socket (struct nbd_handle *h, int sock)
{
  if (nbd_internal_connect_fd_nonblocking (sock) == -1) {
    set_error (errno, "fcntl");
    return -1;
  }
  h->sock = nbd_internal_socket_create (sock);
  if (h->sock == NULL) {
    set_error (errno, "malloc");
    return -1;
  }
  return nbd_internal_run (h, CmdConnectSocket);
}

static int
copy_argv (struct nbd_handle *h, char **argv)
{
  if (argv[0] == NULL) {
    set_error (EINVAL, "argv parameter must have at least 1 element");
    return -1;
  }
  if (nbd_internal_copy_string_list (&h->argv, argv) == -1) {
    set_error (errno, "strdup");
    return -1;
  }
  return 0;
}

int
nbd_unlocked_aio_connect_command (struct nbd_handle *h, char **argv)
{
  if (copy_argv (h, argv) == -1)
    return -1;
  return nbd_internal_run (h, CmdConnectCommand);
}

int
nbd_unlocked_aio_connect_systemd_socket_activation (struct nbd_handle *h,
                                                    char **argv)
{
  if (copy_argv (h, argv) == -1)
    return -1;
  return nbd_internal_run (h, CmdConnectSA);
}

/* The synchronous forms: start, then drive until connected. */

int
nbd_unlocked_connect_uri (struct nbd_handle *h, const char *uri)
{
  if (nbd_unlocked_aio_connect_uri (h, uri) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_unix (struct nbd_handle *h, const char *unixsocket)
{
  if (nbd_unlocked_aio_connect_unix (h, unixsocket) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_vsock (struct nbd_handle *h, uint32_t cid, uint32_t port)
{
  if (nbd_unlocked_aio_connect_vsock (h, cid, port) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_tcp (struct nbd_handle *h, const char *hostname,
                          const char *port)
{
  if (nbd_unlocked_aio_connect_tcp (h, hostname, port) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_socket (struct nbd_handle *h, int sock)
{
  if (nbd_unlocked_aio_connect_socket (h, sock) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_command (struct nbd_handle *h, char **argv)
{
  if (nbd_unlocked_aio_connect_command (h, argv) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_connect_systemd_socket_activation (struct nbd_handle *h,
                                                char **argv)
{
  if (nbd_unlocked_aio_connect_systemd_socket_activation (h, argv) == -1)
    return -1;
  return wait_until_connected (h);
}

int
nbd_unlocked_kill_subprocess (struct nbd_handle *h, int signum)
{
  if (h->pid <= 0) {
    set_error (ESRCH, "no subprocess exists");
    return -1;
  }
  if (signum == 0)
    signum = SIGTERM;
  if (signum < 0) {
    set_error (EINVAL, "invalid signal number: %d", signum);
    return -1;
  }
  if (kill (h->pid, signum) == -1) {
    set_error (errno, "kill");
    return -1;
  }
  return 0;
}

int64_t
nbd_unlocked_get_subprocess_pid (struct nbd_handle *h)
{
  if (h->pid <= 0) {
    set_error (ESRCH, "no subprocess exists");
    return -1;
  }
  return h->pid;
}
