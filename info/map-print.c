/* map-print.c: the extents of --map, in text or JSON, and what their
 * types mean in the contexts nbdinfo knows.
 */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nbdinfo.h"

#define DIRTY_BITMAP_PREFIX "qemu:dirty-bitmap:"

static bool
is_context (const char *name)
{
  return strcmp (map_context, name) == 0;
}

static bool
is_dirty_bitmap (void)
{
  return strncmp (map_context, DIRTY_BITMAP_PREFIX,
                  strlen (DIRTY_BITMAP_PREFIX)) == 0;
}

/* NULL when the type means nothing known; buf (n bytes) may hold the
 * text returned.
 */
const char *
extent_description (uint64_t type, char *buf, size_t n)
{
  static const char *const allocation[] = {
    "data", "hole", "zero", "hole,zero"
  };

  if (is_context ("base:allocation") && type < 4)
    return allocation[type];
  if (is_dirty_bitmap () && type < 2)
    return type ? "dirty" : "clean";
  if (is_context ("qemu:allocation-depth")) {
    if (type < 2)
      return type ? "local" : "absent";
    snprintf (buf, n, "backing depth %" PRIu64, type);
    return buf;
  }
  return NULL;
}

/* Returns true if a colour was set, to be undone after the line. */
bool
extent_colour_on (uint64_t type)
{
  if (!colour)
    return false;
  if (is_context ("base:allocation") && type == 0)
    colour_on (COLOUR_BOLD);
  else if (is_dirty_bitmap () && type < 2)
    colour_on (type ? COLOUR_RED : COLOUR_GREEN);
  else if (is_context ("qemu:allocation-depth") && type == 1) {
    colour_on (COLOUR_BRIGHT_WHITE);
    colour_on (COLOUR_BG_BLACK);
  }
  else if (is_context ("qemu:allocation-depth") && type > 1)
    colour_on (COLOUR_BG_GREY);
  else
    return false;
  return true;
}

static void
print_extent_text (uint64_t offset, const nbd_extent *e)
{
  char buf[64];
  const char *descr = extent_description (e->flags, buf, sizeof buf);
  bool coloured = extent_colour_on (e->flags);

  fprintf (out, "%10" PRIu64 "  %10" PRIu64 "  %3" PRIu64,
           offset, e->length, e->flags);
  if (descr)
    fprintf (out, "  %s", descr);
  if (coloured)
    colour_off ();
  fprintf (out, "\n");
}

static void
print_extent_json (uint64_t offset, const nbd_extent *e)
{
  char buf[64];
  const char *descr = extent_description (e->flags, buf, sizeof buf);

  fprintf (out, "{ \"offset\": %" PRIu64 ", \"length\": %" PRIu64
           ", \"type\": %" PRIu64, offset, e->length, e->flags);
  if (descr) {
    fprintf (out, ", \"description\": ");
    print_json_string (descr);
  }
  fprintf (out, "}");
}

void
print_extents (const struct extent_list *l)
{
  uint64_t offset = 0;
  size_t i;

  if (json_output)
    fprintf (out, "[\n");
  for (i = 0; i < l->len; i++) {
    if (json_output) {
      if (i > 0)
        fprintf (out, ",\n");
      print_extent_json (offset, &l->ptr[i]);
    }
    else
      print_extent_text (offset, &l->ptr[i]);
    offset += l->ptr[i].length;
  }
  if (json_output)
    fprintf (out, "\n]\n");
}
