/* range.c: the range to erase or check, fitted to the export. */
#include <config.h>

#include <stdio.h>

#include "nbddiscard.h"

/* Warnings go to stdout, where libnbd 1.24's tools print them. */
static void
warn (const struct options *opts, const char *msg)
{
  if (!opts->quiet)
    printf ("warning: %s\n", msg);
}

bool
fit_range (const struct options *opts, uint64_t size,
           uint64_t *offset, uint64_t *length)
{
  *offset = opts->have_offset ? opts->offset : 0;
  if (opts->have_offset && *offset >= size) {
    warn (opts, "offset at or beyond the end of the disk");
    return false;
  }
  *length = size - *offset;
  if (opts->have_length) {
    if (opts->length > *length)
      warn (opts, "offset + length is beyond the end of the disk");
    else
      *length = opts->length;
  }
  return true;
}
