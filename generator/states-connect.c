/* states-connect.c: connecting a socket, a subprocess or an activated
 * server; the handshake starts at MAGIC.
 */

#include <fcntl.h>
#include <sys/wait.h>
#include <sys/un.h>

/* Finish a connect whose socket is h->sock: 0 done, 1 still going,
 * -1 failed (error set).
 */
static int
connect_status (struct nbd_handle *h)
{
  int status;
  socklen_t len = sizeof status;
  int fd = h->sock->ops->get_fd (h->sock);

  if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &status, &len) == -1) {
    set_error (errno, "getsockopt: SO_ERROR");
    return -1;
  }
  if (status == EINPROGRESS || status == EALREADY)
    return 1;
  if (status != 0) {
    errno = status;
    return -1;
  }
  return 0;
}

/* Start a non-blocking connect of a new socket to ADDR. */
static int
start_connect (struct nbd_handle *h, const struct sockaddr *addr,
               socklen_t len)
{
  int fd = socket (addr->sa_family, SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC,
                   0);

  if (fd == -1)
    return -1;
  h->sock = nbd_internal_socket_create (fd);
  if (h->sock == NULL) {
    close (fd);
    errno = ENOMEM;
    return -1;
  }
  nbd_internal_socket_set_options (h, h->sock, addr->sa_family);
  if (connect (fd, addr, len) == -1 && errno != EINPROGRESS)
    return -1;
  return 0;
}

STATE_MACHINE {
 CREATED.START:
  /* Only external events leave this state. */
  return 0;

 CONNECT.START:
  if (start_connect (h, (struct sockaddr *) &h->connaddr,
                     h->connaddr_len) == -1) {
    set_error (errno, "connect");
    return -1;
  }
  SET_NEXT_STATE_AND_BLOCK (%CONNECTING);
  return 0;

 CONNECT.CONNECTING:
  switch (connect_status (h)) {
  case -1:
    set_error (errno, "connect");
    return -1;
  case 0:
    SET_NEXT_STATE (%.MAGIC);
  }
  return 0;

 CONNECT_TCP.START:
  struct addrinfo hints = {
    .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
    .ai_flags = AI_ADDRCONFIG,
  };
  int r;

  if (h->result) {
    freeaddrinfo (h->result);
    h->result = NULL;
  }
  r = getaddrinfo (h->hostname, h->port, &hints, &h->result);
  if (r != 0) {
    set_error (r == EAI_SYSTEM ? errno : ENXIO, "getaddrinfo: %s:%s: %s",
               h->hostname, h->port, gai_strerror (r));
    return -1;
  }
  h->rp = h->result;
  h->connect_errno = 0;
  SET_NEXT_STATE (%CONNECT);
  return 0;

 CONNECT_TCP.CONNECT:
  if (h->rp == NULL) {
    set_error (h->connect_errno ? h->connect_errno : ECONNREFUSED,
               "connect: %s:%s", h->hostname, h->port);
    return -1;
  }
  if (start_connect (h, h->rp->ai_addr, h->rp->ai_addrlen) == -1) {
    if (h->connect_errno == 0)
      h->connect_errno = errno;
    SET_NEXT_STATE (%NEXT_ADDRESS);
    return 0;
  }
  SET_NEXT_STATE_AND_BLOCK (%CONNECTING);
  return 0;

 CONNECT_TCP.CONNECTING:
  switch (connect_status (h)) {
  case -1:
    if (h->connect_errno == 0)
      h->connect_errno = errno;
    SET_NEXT_STATE (%NEXT_ADDRESS);
    break;
  case 0:
    freeaddrinfo (h->result);
    h->result = h->rp = NULL;
    SET_NEXT_STATE (%.MAGIC);
  }
  return 0;

 CONNECT_TCP.NEXT_ADDRESS:
  nbd_internal_close_socket (h);
  if (h->rp)
    h->rp = h->rp->ai_next;
  SET_NEXT_STATE (%CONNECT);
  return 0;

 CONNECT_COMMAND.START:
  int sv[2];
  pid_t pid;
  struct child_spec child = { .argv = h->argv.ptr, .targets = { 0, 1 } };

  if (socketpair (AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, sv) == -1) {
    set_error (errno, "socketpair");
    return -1;
  }
  child.fd = sv[1];             /* the server's stdin and stdout */
  pid = nbd_internal_fork_exec (h, &child);
  if (pid == -1) {
    close (sv[0]);
    close (sv[1]);
    return -1;
  }
  close (sv[1]);
  h->pid = pid;
  if (nbd_internal_connect_fd_nonblocking (sv[0]) == -1) {
    set_error (errno, "fcntl");
    close (sv[0]);
    return -1;
  }
  h->sock = nbd_internal_socket_create (sv[0]);
  if (h->sock == NULL) {
    set_error (errno, "malloc");
    close (sv[0]);
    return -1;
  }
  SET_NEXT_STATE (%.MAGIC);
  return 0;

 CONNECT_SA.START:
  if (nbd_internal_socket_activation (h) == -1)
    return -1;
  SET_NEXT_STATE (%.CONNECT);
  return 0;
} /* END STATE MACHINE */
