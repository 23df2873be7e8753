/* misbehave-out-of-range.c: a chunk outside the read fails it with EPROTO. */
/* A server sending a data chunk that runs past the end of the
 * request.  Expected: the read fails with EPROTO (libnbd instead
 * marks the handle dead, and the read fails with another errno).
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_read_fails_eproto (argv[0], "out-of-range");
  exit (EXIT_SUCCESS);
}
