/* facts.c: gather what the default mode prints about one export. */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "nbdinfo.h"

/* The flags in the order they are printed. */
const char *const export_flag_names[NR_EXPORT_FLAGS] = {
  "is_rotational", "is_read_only", "can_block_status_payload",
  "can_cache", "can_df", "can_fast_zero", "can_flush", "can_fua",
  "can_multi_conn", "can_trim", "can_zero",
};
static int (*const export_flag_getters[NR_EXPORT_FLAGS])
  (struct nbd_handle *) = {
  nbd_is_rotational, nbd_is_read_only, nbd_can_block_status_payload,
  nbd_can_cache, nbd_can_df, nbd_can_fast_zero, nbd_can_flush, nbd_can_fua,
  nbd_can_multi_conn, nbd_can_trim, nbd_can_zero,
};

const char *const block_size_names[3] = {
  "block_size_minimum", "block_size_preferred", "block_size_maximum",
};
static const int block_size_kinds[3] = {
  LIBNBD_SIZE_MINIMUM, LIBNBD_SIZE_PREFERRED, LIBNBD_SIZE_MAXIMUM,
};

struct context_list {
  struct export_facts *facts;
  bool oom;
};

static int
add_context (void *user_data, const char *name)
{
  struct context_list *l = user_data;
  struct export_facts *f = l->facts;
  char **p = realloc (f->contexts, (f->nr_contexts + 1) * sizeof *p);

  if (p == NULL || (p[f->nr_contexts] = strdup (name)) == NULL) {
    if (p)
      f->contexts = p;
    l->oom = true;
    return 0;
  }
  f->contexts = p;
  f->nr_contexts++;
  return 0;
}

/* Without a query, the server lists every context the export has. */
static void
gather_contexts (struct nbd_handle *nbd, struct export_facts *f)
{
  struct context_list l = { .facts = f };
  nbd_context_callback cb = { .callback = add_context, .user_data = &l };

  f->have_contexts = nbd_opt_list_meta_context (nbd, cb) != -1;
  if (l.oom)
    die_oom ();
}

/* The export refused both INFO and GO: say which export, and go on
 * to the next one of a list.
 */
static void
report_refused (struct nbd_handle *nbd)
{
  char *name = nbd_get_export_name (nbd);

  fprintf (stderr, "%s: %s", progname, nbd_get_error ());
  if (name && *name)
    fprintf (stderr, " for export: %s", name);
  else if (name)
    fprintf (stderr, " for the default export");
  fprintf (stderr, "\n");
  free (name);
  if (!list_all)
    fprintf (stderr, "%s: suggestion: to list all exports on the server, "
             "use --list\n", progname);
}

static void
gather_flags (struct nbd_handle *nbd, struct export_facts *f)
{
  size_t i;

  for (i = 0; i < NR_EXPORT_FLAGS; i++)
    f->flags[i] = export_flag_getters[i] (nbd);
  for (i = 0; i < 3; i++)
    f->block_size[i] = nbd_get_block_size (nbd, block_size_kinds[i]);
}

static void
gather_names (struct nbd_handle *nbd, const char *desc,
              struct export_facts *f)
{
  if (uri_is_meaningful ())
    f->uri = nbd_get_uri (nbd);
  /* Prefer the name the server gave in its INFO reply. */
  f->name = nbd_get_canonical_export_name (nbd);
  if (f->name == NULL)
    f->name = nbd_get_export_name (nbd);
  if (f->name == NULL)
    die_nbd ();
  /* A description from the export list wins, as it cost nothing. */
  f->desc = desc ? strdup (desc) : nbd_get_export_description (nbd);
  if (desc && f->desc == NULL)
    die_oom ();
}

/* INFO gives everything without committing to the export; servers
 * too old for it (or oldstyle, already past negotiation) need GO.
 */
bool
gather_facts (struct nbd_handle *nbd, const char *desc,
              struct export_facts *f)
{
  memset (f, 0, sizeof *f);
  nbd_set_request_meta_context (nbd, false);
  if (nbd_aio_is_negotiating (nbd) &&
      nbd_opt_info (nbd) == -1 && nbd_opt_go (nbd) == -1) {
    report_refused (nbd);
    return false;
  }
  f->size = nbd_get_size (nbd);
  gather_names (nbd, desc, f);
  gather_flags (nbd, f);
  gather_contexts (nbd, f);
  /* Last: reading the content moves the handle out of negotiation. */
  if (f->size >= 0)
    f->content = probe_export_content (nbd, f->size);
  return true;
}

void
free_facts (struct export_facts *f)
{
  size_t i;

  for (i = 0; i < f->nr_contexts; i++)
    free (f->contexts[i]);
  free (f->contexts);
  free (f->name);
  free (f->desc);
  free (f->content);
  free (f->uri);
}
