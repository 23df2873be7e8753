/* usage-error.c: the message and exit status of a bad command line. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "usage-error.h"

void
usage_error (const char *program, const char *fmt, ...)
{
  va_list args;

  fprintf (stderr, "%s: ", program);
  va_start (args, fmt);
  vfprintf (stderr, fmt, args);
  va_end (args);
  fprintf (stderr, "\nTry '%s --help' for usage.\n", program);
  exit (EXIT_FAILURE);
}
