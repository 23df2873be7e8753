/* misbehave-unknown-cookie.c: a reply to a cookie never used does no harm. */
/* The server sends a chunk for a cookie no command used, then the
 * real replies.  Expected, as in libnbd 1.22: the stray chunk (its
 * length says how much to skip) is skipped, the handle stays ready and
 * every read returns the right data: MUST_BE_IGNORED.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_handle_dies (argv[0], "unknown-cookie", MUST_BE_IGNORED);
  exit (EXIT_SUCCESS);
}
