/* misbehave-huge-chunk.c: an enormous chunk length kills the handle. */
/* The server replies with a chunk header claiming 0xffffffff bytes.
 * Expected: the handle dies at once (no attempt to read 4 GiB), every
 * read in flight fails, nothing hangs.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_handle_dies (argv[0], "huge-chunk", MUST_DIE);
  exit (EXIT_SUCCESS);
}
