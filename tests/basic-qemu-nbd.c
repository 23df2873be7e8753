/* basic-qemu-nbd.c: test connecting to qemu-nbd and reading its flags. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <libnbd.h>

#include "test-common.h"

static char disk[] = "/tmp/basic-qemu-nbd-XXXXXX";

static void
remove_disk (void)
{
  unlink (disk);
}

int
main (void)
{
  struct nbd_handle *h;
  char *args[] = { "qemu-nbd", "-f", "raw", "-x", "qexport", disk, NULL };
  char buf[512];
  const char *p;
  int fd;

  requires_program ("qemu-nbd");

  fd = mkstemp (disk);
  CHECK (fd >= 0);
  atexit (remove_disk);
  CHECK (ftruncate (fd, 2 * 1024 * 1024) == 0);
  close (fd);

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_export_name (h, "qexport") == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_systemd_socket_activation (h, args) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == 2 * 1024 * 1024);
  p = nbd_get_protocol (h);
  CHECK (p != NULL && strcmp (p, "newstyle-fixed") == 0);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  CHECK (nbd_is_read_only (h) == 0);
  CHECK (nbd_can_flush (h) == 1);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
