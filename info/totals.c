/* totals.c: --map --totals, how much of the export each type covers. */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbdinfo.h"

struct total {
  uint64_t type;
  uint64_t bytes;
};

static int
compare_types (const void *a, const void *b)
{
  const struct total *x = a, *y = b;

  return x->type < y->type ? -1 : x->type > y->type;
}

/* One total per type, in increasing order of type.  A context has few
 * types, so a linear search per extent is cheap.
 */
static size_t
sum_types (const struct extent_list *l, struct total *t)
{
  size_t i, j, n = 0;

  for (i = 0; i < l->len; i++) {
    for (j = 0; j < n && t[j].type != l->ptr[i].flags; j++)
      ;
    if (j == n)
      t[n++] = (struct total) { l->ptr[i].flags, 0 };
    t[j].bytes += l->ptr[i].length;
  }
  qsort (t, n, sizeof *t, compare_types);
  return n;
}

static void
print_total (const struct total *t, uint64_t size, bool first)
{
  char buf[64];
  const char *descr = extent_description (t->type, buf, sizeof buf);
  double percent = 100.0 * t->bytes / size;
  bool coloured;

  if (json_output) {
    fprintf (out, "%s{ \"size\": %" PRIu64 ", \"percent\": %g, "
             "\"type\": %" PRIu64, first ? "" : ",\n",
             t->bytes, percent, t->type);
    if (descr) {
      fprintf (out, ", \"description\": ");
      print_json_string (descr);
    }
    fprintf (out, " }");
    return;
  }
  coloured = extent_colour_on (t->type);
  fprintf (out, "%10" PRIu64 " %5.1f%% %3" PRIu64, t->bytes, percent,
           t->type);
  if (descr)
    fprintf (out, " %s", descr);
  if (coloured)
    colour_off ();
  fprintf (out, "\n");
}

void
print_totals (const struct extent_list *l, uint64_t size)
{
  struct total *t;
  size_t i, n, shown = 0;

  /* An empty export has nothing to divide by. */
  if (size == 0) {
    if (json_output)
      fprintf (out, "[]\n");
    return;
  }
  t = malloc ((l->len ? l->len : 1) * sizeof *t);
  if (t == NULL)
    die_oom ();
  n = sum_types (l, t);
  if (json_output)
    fprintf (out, "[\n");
  for (i = 0; i < n; i++)
    if (t[i].bytes > 0)
      print_total (&t[i], size, shown++ == 0);
  if (json_output)
    fprintf (out, "\n]\n");
  free (t);
}
