/* show-json.c: one export's facts as a JSON object. */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "human-size.h"
#include "nbdinfo.h"

static void
json_member (const char *key, const char *value)
{
  fprintf (out, "\t\"%s\": ", key);
  print_json_string (value);
  fprintf (out, ",\n");
}

static void
json_contexts (const struct export_facts *f)
{
  size_t i;

  fprintf (out, "\t\"contexts\": [\n");
  for (i = 0; i < f->nr_contexts; i++) {
    fprintf (out, "\t\t");
    print_json_string (f->contexts[i]);
    fprintf (out, i + 1 < f->nr_contexts ? ",\n" : "\n");
  }
  fprintf (out, "\t],\n");
}

/* The size comes last because export-size-str, always present, is
 * the one member without a trailing comma.
 */
static void
json_size (int64_t size)
{
  char human[HUMAN_SIZE_MAX] = "unavailable";

  if (size >= 0) {
    fprintf (out, "\t\"export-size\": %" PRIi64 ",\n", size);
    human_size (human, size);
  }
  fprintf (out, "\t\"export-size-str\": \"%s\"\n", human);
}

/* Written without a newline after the closing brace: show.c adds the
 * separator or the end of the array.
 */
void
show_facts_json (const struct export_facts *f)
{
  size_t i;

  fprintf (out, "\t{\n");
  json_member ("export-name", f->name);
  if (f->desc && *f->desc)
    json_member ("description", f->desc);
  if (f->content)
    json_member ("content", f->content);
  if (f->uri)
    json_member ("uri", f->uri);
  if (f->have_contexts)
    json_contexts (f);
  for (i = 0; i < NR_EXPORT_FLAGS; i++)
    if (f->flags[i] >= 0)
      print_json_bool (export_flag_names[i], f->flags[i]);
  for (i = 0; i < 3; i++)
    if (f->block_size[i] > 0)
      fprintf (out, "\t\"%s\": %" PRIi64 ",\n",
               block_size_names[i], f->block_size[i]);
  json_size (f->size);
  fprintf (out, "\t}");
}
