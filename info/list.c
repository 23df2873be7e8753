/* list.c: --list, every export the server lists, shown one by one. */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "nbdinfo.h"

struct export {
  char *name;
  char *desc;
};

struct export_list {
  struct export *ptr;
  size_t len;
  bool oom;                     /* set by the callback, checked after */
};

static int
add_export (void *user_data, const char *name, const char *desc)
{
  struct export_list *l = user_data;
  struct export *p = realloc (l->ptr, (l->len + 1) * sizeof *p);

  if (p == NULL) {
    l->oom = true;
    return 0;
  }
  l->ptr = p;
  p[l->len].name = strdup (name);
  p[l->len].desc = strdup (desc);
  if (p[l->len].name == NULL || p[l->len].desc == NULL)
    l->oom = true;
  l->len++;
  return 0;
}

static void
free_exports (struct export_list *l)
{
  size_t i;

  for (i = 0; i < l->len; i++) {
    free (l->ptr[i].name);
    free (l->ptr[i].desc);
  }
  free (l->ptr);
}

/* Reading content takes the handle past negotiation, so each export
 * then gets a connection of its own; otherwise one handle in option
 * mode asks about them all in turn.
 */
static bool
show_listed (struct nbd_handle *nbd, const struct export *e)
{
  struct nbd_handle *nbd2 = nbd;
  bool ok;

  if (probe_content) {
    nbd2 = open_handle ();
    nbd_set_request_meta_context (nbd2, false);
    nbd_set_full_info (nbd2, true);
    connect_handle (nbd2);
  }
  if (nbd_set_export_name (nbd2, e->name) == -1)
    die_nbd ();
  ok = show_export (nbd2, e->desc);
  if (nbd2 != nbd)
    close_handle (nbd2);
  return ok;
}

/* True if every export could be shown; the others are reported on
 * stderr and skipped.
 */
bool
do_list (struct nbd_handle *nbd)
{
  struct export_list l = { NULL, 0, false };
  nbd_list_callback cb = { .callback = add_export, .user_data = &l };
  bool ok = true;
  size_t i;

  if (nbd_opt_list (nbd, cb) == -1)
    die_nbd ();
  if (l.oom)
    die_oom ();
  for (i = 0; i < l.len; i++)
    if (!show_listed (nbd, &l.ptr[i]))
      ok = false;
  free_exports (&l);
  return ok;
}
