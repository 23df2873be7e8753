/* json-print.c: JSON strings and fields in the spooled output. */

#include <config.h>

#include <stdio.h>

#include "nbdinfo.h"

/* Quote and escape a string.  Only the quote, the backslash and the
 * control characters need escaping; other bytes pass as they are.
 */
void
print_json_string (const char *str)
{
  const unsigned char *p;

  fputc ('"', out);
  for (p = (const unsigned char *) str; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf (out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf (out, "\\u%04x", *p);
    else
      fputc (*p, out);
  }
  fputc ('"', out);
}

/* One boolean member of an export object (never the last member). */
void
print_json_bool (const char *key, int value)
{
  fprintf (out, "\t\"%s\": %s,\n", key, value ? "true" : "false");
}
