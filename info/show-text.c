/* show-text.c: one export's facts as indented "key: value" lines. */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "human-size.h"
#include "nbdinfo.h"

/* "1048576 (1M)" when a unit fits, else the bytes alone. */
static void
show_size (const char *key, int64_t size)
{
  char human[HUMAN_SIZE_MAX];

  if (human_size (human, size))
    fprintf (out, "\t%s: %" PRIi64 " (%s)\n", key, size, human);
  else
    fprintf (out, "\t%s: %" PRIi64 "\n", key, size);
}

static void
show_header (const struct export_facts *f)
{
  colour_on (COLOUR_BOLD);
  fprintf (out, "export=");
  /* The JSON quoting makes any name printable. */
  print_json_string (f->name);
  fprintf (out, ":\n");
  if (f->desc && *f->desc)
    fprintf (out, "\tdescription: %s\n", f->desc);
  if (f->size >= 0)
    show_size ("export-size", f->size);
  else
    fprintf (out, "\texport-size: unavailable\n");
  if (f->content)
    fprintf (out, "\tcontent: %s\n", f->content);
  if (f->uri)
    fprintf (out, "\turi: %s\n", f->uri);
  colour_off ();
}

static void
show_contexts (const struct export_facts *f)
{
  size_t i;

  if (!f->have_contexts)
    return;
  colour_on (COLOUR_GREY);
  fprintf (out, "\tcontexts:\n");
  for (i = 0; i < f->nr_contexts; i++)
    fprintf (out, "\t\t%s\n", f->contexts[i]);
  colour_off ();
}

/* is_rotational is a hint, grey; is_read_only a plain fact; the
 * can_* flags green when true, red when false.
 */
static void
show_flag (size_t i, int value)
{
  if (i == 0)
    colour_on (COLOUR_GREY);
  else if (i > 1)
    colour_on (value ? COLOUR_GREEN : COLOUR_RED);
  fprintf (out, "\t%s: %s\n", export_flag_names[i], value ? "true" : "false");
  if (i != 1)
    colour_off ();
}

void
show_facts_text (const struct export_facts *f)
{
  size_t i;

  show_header (f);
  show_contexts (f);
  for (i = 0; i < NR_EXPORT_FLAGS; i++)
    if (f->flags[i] >= 0)
      show_flag (i, f->flags[i]);
  for (i = 0; i < 3; i++)
    if (f->block_size[i] > 0)
      show_size (block_size_names[i], f->block_size[i]);
}
