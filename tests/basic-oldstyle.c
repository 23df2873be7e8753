/* basic-oldstyle.c: test connecting to an oldstyle and a newstyle server. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

static void
check (char **args, const char *protocol, int sr)
{
  struct nbd_handle *h;
  const char *p;
  char buf[512];

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_get_protocol (h) == NULL);    /* not negotiated yet */
  CHECK (nbd_connect_command (h, args) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  p = nbd_get_protocol (h);
  CHECK (p != NULL);
  if (strcmp (p, protocol) != 0)
    FAIL ("get_protocol: got \"%s\", expected \"%s\"", p, protocol);
  CHECK (nbd_get_size (h) == 4 * 1024 * 1024);
  CHECK (nbd_get_structured_replies_negotiated (h) == sr);
  CHECK (nbd_is_read_only (h) == 0);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  char *oldstyle[] = { "nbdkit", "-s", "--exit-with-parent", "-o",
                       "memory", "4M", NULL };
  char *newstyle[] = { "nbdkit", "-s", "--exit-with-parent",
                       "memory", "4M", NULL };

  requires_program ("nbdkit");

  check (oldstyle, "oldstyle", 0);
  check (newstyle, "newstyle-fixed", 1);

  exit (EXIT_SUCCESS);
}
