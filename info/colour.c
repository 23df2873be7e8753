/* colour.c: ANSI colours in the text output, only with --colour. */

#include <config.h>

#include <stdio.h>

#include "nbdinfo.h"

void
colour_on (const char *code)
{
  if (colour)
    fprintf (out, "\033[%sm", code);
}

void
colour_off (void)
{
  if (colour)
    fputs ("\033[0m", out);
}
