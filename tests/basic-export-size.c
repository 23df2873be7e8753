/* basic-export-size.c: test nbd_get_size for 0, 1, odd and huge exports. */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"

static void
check (const char *size_arg, int64_t expect)
{
  struct nbd_handle *h;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "null",
                   (char *) size_arg, NULL };
  int64_t size;

  h = connect_command_or_fail (args);
  size = nbd_get_size (h);
  if (size != expect)
    FAIL ("%s: got %" PRIi64 ", expected %" PRIi64, size_arg, size, expect);
  /* Asking again gives the same answer. */
  CHECK (nbd_get_size (h) == expect);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");

  check ("size=0", 0);
  check ("size=1", 1);
  check ("size=12345", 12345);
  check ("size=1T", INT64_C (1) << 40);
  check ("size=9223372036854775807", INT64_MAX);

  exit (EXIT_SUCCESS);
}
