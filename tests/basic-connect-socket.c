/* basic-connect-socket.c: test nbd_connect_socket on socketpair and Unix. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"
#include "basic-server.h"

/* Run "nbdkit -s" with one end of a socketpair as stdin and stdout. */
static int
socketpair_server (pid_t *pid)
{
  int sv[2];

  CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  *pid = fork ();
  CHECK (*pid != -1);
  if (*pid == 0) {
    close (sv[0]);
    if (dup2 (sv[1], 0) == -1 || dup2 (sv[1], 1) == -1)
      _exit (EXIT_FAILURE);
    close (sv[1]);
    execlp ("nbdkit", "nbdkit", "-s", "--exit-with-parent",
            "null", "size=3M", (char *) NULL);
    perror ("nbdkit");
    _exit (EXIT_FAILURE);
  }
  close (sv[1]);
  return sv[0];
}

int
main (void)
{
  struct nbd_handle *h;
  const char *args[] = { "memory", "size=5M", NULL };
  pid_t pid;
  int fd;

  requires_program ("nbdkit");

  /* A socketpair: the handle owns the fd from now on. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_socket (h, socketpair_server (&pid)) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 3 * 1024 * 1024);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  CHECK (waitpid (pid, NULL, 0) == pid);

  /* A Unix socket connected by the caller. */
  start_server (listen_unix (), args);
  fd = connect_server_unix ();

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_socket (h, fd) == 0);
  CHECK (nbd_get_size (h) == 5 * 1024 * 1024);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
