/* list-options.c: --long-options and --short-options for the tools. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list-options.h"

void
list_long_options (const struct option *options)
{
  size_t i;

  for (i = 0; options[i].name != NULL; ++i)
    if (strcmp (options[i].name, "long-options") != 0 &&
        strcmp (options[i].name, "short-options") != 0)
      printf ("--%s\n", options[i].name);
  exit (EXIT_SUCCESS);
}

void
list_short_options (const char *options)
{
  size_t i;

  for (i = 0; options[i]; ++i)
    if (options[i] != ':')
      printf ("-%c\n", options[i]);
  exit (EXIT_SUCCESS);
}
