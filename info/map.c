/* map.c: --map, the extents of one metadata context over the export. */

#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "nbdinfo.h"

/* Merging as extents arrive keeps a sparse export's map small however
 * many pieces the server reports it in.
 */
static bool
append_extent (struct extent_list *l, nbd_extent e)
{
  /* A server may describe more than was asked (nbdkit answers a
   * 4 GiB - 512 request with 4 GiB - 1): keep only the request, so the
   * next one starts where this ended, still aligned.
   */
  if (e.length > l->limit - l->end)
    e.length = l->limit - l->end;
  if (e.length == 0)
    return true;
  l->end += e.length;
  if (l->len > 0 && l->ptr[l->len - 1].flags == e.flags) {
    l->ptr[l->len - 1].length += e.length;
    return true;
  }
  if (l->len == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    nbd_extent *p = realloc (l->ptr, cap * sizeof *p);

    if (p == NULL)
      return false;
    l->ptr = p;
    l->cap = cap;
  }
  l->ptr[l->len++] = e;
  return true;
}

static int
extent_callback (void *user_data, const char *context, uint64_t offset,
                 nbd_extent *entries, size_t nr_entries, int *error)
{
  struct extent_list *l = user_data;
  size_t i;

  /* Only the one context was asked for, but a server may send more. */
  if (strcmp (context, map_context) != 0)
    return 0;
  for (i = 0; i < nr_entries && !l->oom; i++)
    if (!append_extent (l, entries[i]))
      l->oom = true;
  return 0;
}

/* The longest request: without extended headers a length is 32 bits,
 * kept a multiple of the minimum block size.
 */
static uint64_t
max_request (struct nbd_handle *nbd, uint64_t size)
{
  int64_t align = nbd_get_block_size (nbd, LIBNBD_SIZE_MINIMUM);

  if (nbd_get_extended_headers_negotiated (nbd) == 1)
    return size;
  if (align <= 0)
    align = 512;
  return UINT32_MAX - align + 1;
}

static void
collect_extents (struct nbd_handle *nbd, uint64_t size,
                 struct extent_list *l)
{
  uint64_t max = max_request (nbd, size);
  nbd_extent64_callback cb = { .callback = extent_callback, .user_data = l };

  while (l->end < size) {
    uint64_t start = l->end;
    uint64_t len = size - start < max ? size - start : max;

    l->limit = start + len;
    if (nbd_block_status_64 (nbd, len, start, cb, 0) == -1)
      die_nbd ();
    if (l->oom)
      die_oom ();
    if (l->end == start) {
      fprintf (stderr, "%s: --map: server did not return any extents\n",
               progname);
      exit (EXIT_FAILURE);
    }
  }
}

void
do_map (struct nbd_handle *nbd)
{
  struct extent_list l = { 0 };
  int64_t size;

  if (nbd_aio_is_negotiating (nbd) && nbd_opt_go (nbd) == -1)
    die_nbd ();
  if (nbd_can_meta_context (nbd, map_context) < 1) {
    fprintf (stderr, "%s: --map: server does not support metadata "
             "context \"%s\"\n", progname, map_context);
    exit (EXIT_FAILURE);
  }
  size = nbd_get_size (nbd);
  if (size == -1)
    die_nbd ();
  collect_extents (nbd, size, &l);
  if (map_totals)
    print_totals (&l, size);
  else
    print_extents (&l);
  free (l.ptr);
}
