/* basic-nozero.c: test can_zero is false when the server has no zeroing. */

#include <stdio.h>
#include <stdlib.h>

#include <libnbd.h>

#include "test-common.h"

static void
check (char **args, int zero)
{
  struct nbd_handle *h;

  h = connect_command_or_fail (args);
  CHECK (nbd_is_read_only (h) == 0);
  if (nbd_can_zero (h) != zero)
    FAIL ("can_zero: got %d, expected %d", nbd_can_zero (h), zero);
  if (!zero)
    CHECK (nbd_can_fast_zero (h) == 0);
  CHECK (nbd_can_trim (h) == 1);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  char *plain[] = { "nbdkit", "-s", "--exit-with-parent",
                    "memory", "1M", NULL };
  char *nozero[] = { "nbdkit", "-s", "--exit-with-parent",
                     "--filter=nozero", "memory", "1M", NULL };

  requires_program ("nbdkit");

  check (plain, 1);
  check (nozero, 0);

  exit (EXIT_SUCCESS);
}
