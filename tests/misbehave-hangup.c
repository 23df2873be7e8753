/* misbehave-hangup.c: a server hanging up mid-reply fails every command. */
/* The server closes the connection in the middle of a data chunk.
 * Expected: the handle dies, every read in flight fails.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_handle_dies (argv[0], "hangup", MUST_DIE);
  exit (EXIT_SUCCESS);
}
