/* size.c: the sizes of --offset and --length. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human-size.h"
#include "nbddiscard.h"

static void __attribute__ ((noreturn))
cannot_parse (const char *arg)
{
  fprintf (stderr, "%s: cannot parse offset/length parameter: %s\n",
           progname, arg);
  exit (EXIT_FAILURE);
}

/* Whether ARG, too large to be parsed, is digits with a valid suffix. */
static bool
well_formed (const char *arg)
{
  const char *tail = arg + strspn (arg, "0123456789");
  char one[16];
  const char *error;

  if (tail == arg || strlen (tail) > sizeof one - 2)
    return false;
  snprintf (one, sizeof one, "1%s", tail);
  return human_size_parse (one, &error) != -1;
}

/* A size past 2^63-1 bytes is beyond the end of any export: it stands
 * for UINT64_MAX, so that the range is clipped to the export as 1.24
 * clips it, never refused for its size alone.
 */
uint64_t
parse_size (const char *arg)
{
  const char *error;
  int64_t r = human_size_parse (arg, &error);

  if (r != -1)
    return (uint64_t) r;
  if (well_formed (arg))
    return UINT64_MAX;
  cannot_parse (arg);
}
