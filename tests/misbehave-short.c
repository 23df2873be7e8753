/* misbehave-short.c: too few bytes for a read fail it with EPROTO. */
/* A server sending structured read chunks that cover only the first
 * half of the request, then NBD_REPLY_TYPE_NONE with DONE.
 * Expected: the read fails with EPROTO, as in libnbd 1.22 (libnbd
 * 1.14 reports EIO, so this test fails there).
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_read_fails_eproto (argv[0], "short");
  exit (EXIT_SUCCESS);
}
