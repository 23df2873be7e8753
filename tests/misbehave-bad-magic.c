/* misbehave-bad-magic.c: a reply with a bad magic kills the handle. */
/* The server replies with a wrong magic number.
 * Expected: the handle dies, every read in flight fails.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_handle_dies (argv[0], "bad-magic", MUST_DIE);
  exit (EXIT_SUCCESS);
}
