/* misbehave-unknown-cookie.c: a reply to a cookie never used does no harm. */
/* The server sends a chunk for a cookie no command used, then the
 * real replies.  Expected: no crash, no hang, no wrong data.  The brief
 * asks for the handle to die; libnbd 1.22 instead skips the stray
 * reply and carries on (handle ready, all reads correct).  Both are
 * accepted here: MAY_BE_IGNORED.
 */

#include <config.h>

#include <stdlib.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  expect_handle_dies (argv[0], "unknown-cookie", MAY_BE_IGNORED);
  exit (EXIT_SUCCESS);
}
