/* prompt.c: the question asked before anything is erased. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "nbddiscard.h"

/* One byte is read, as 1.24 reads one character: "y\n" typed at a
 * terminal and "y" from a pipe both say yes, and nothing after the
 * first byte is consumed that a later reader of stdin might want.
 */
bool
confirm (const char *target, uint64_t offset, uint64_t length)
{
  char c;
  ssize_t r;

  printf ("PERMANENTLY ERASE everything on %s bytes %" PRIu64 " - %" PRIu64
          " (y/N)? ", target, offset, offset + length - 1);
  fflush (stdout);
  do
    r = read (STDIN_FILENO, &c, 1);
  while (r == -1 && errno == EINTR);
  return r == 1 && (c == 'y' || c == 'Y');
}
