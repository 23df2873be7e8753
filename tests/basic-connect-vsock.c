/* basic-connect-vsock.c: AF_VSOCK is built in, and connecting (sync and
 * aio) to a vsock address where no server listens fails with the error
 * the kernel gives for that address, leaving the handle unconnected.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#ifdef HAVE_LINUX_VM_SOCKETS_H
#include <linux/vm_sockets.h>
#endif

#include <libnbd.h>

#include "test-common.h"

#define CID 1                   /* VMADDR_CID_LOCAL */
#define PORT 1                  /* nothing listens there */

#ifdef HAVE_LINUX_VM_SOCKETS_H
/* What a plain blocking connect to CID:PORT says on this kernel. */
static int
kernel_errno (void)
{
  struct sockaddr_vm svm = { .svm_family = AF_VSOCK, .svm_cid = CID,
                             .svm_port = PORT };
  int fd = socket (AF_VSOCK, SOCK_STREAM, 0), err;

  if (fd == -1)
    return errno;
  err = connect (fd, (struct sockaddr *) &svm, sizeof svm) == 0 ? 0 : errno;
  close (fd);
  return err;
}
#endif

int
main (void)
{
#ifndef HAVE_LINUX_VM_SOCKETS_H
  fprintf (stderr, "SKIP: this system has no <linux/vm_sockets.h>\n");
  exit (SKIP_STATUS);
#else
  struct nbd_handle *h;
  int want = kernel_errno ();

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_supports_vsock (h) == 1);
  if (want == 0) {
    fprintf (stderr, "SKIP: something listens on vsock %d:%d\n", CID, PORT);
    exit (SKIP_STATUS);
  }
  CHECK (nbd_connect_vsock (h, CID, PORT) == -1);
  CHECK (nbd_get_errno () == want);
  CHECK (nbd_aio_is_connecting (h) == 0 && nbd_aio_is_ready (h) == 0);
  nbd_close (h);

  /* The aio form fails at once or reports the error while connecting. */
  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_aio_connect_vsock (h, CID, PORT) == 0) {
    while (nbd_aio_is_connecting (h))
      if (nbd_poll (h, -1) == -1)
        break;
  }
  CHECK (nbd_get_errno () == want);
  CHECK (nbd_aio_is_ready (h) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
#endif
}
