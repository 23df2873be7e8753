/* misbehave-overlap.c: overlapping read chunks fail the read with EPROTO. */
/* A server sending chunks whose lengths add up to the request, but
 * covering the second quarter twice and the last quarter never.
 * Expected: the read fails with EPROTO.  libnbd (1.14 and 1.22) only
 * counts bytes, so it reports success there: this test fails against
 * libnbd, and our library must track coverage, not a byte count.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_read_fails_eproto (argv[0], "overlap");
  exit (EXIT_SUCCESS);
}
