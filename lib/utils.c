/* utils.c: string vectors, byte ranges and wire encoding helpers. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "internal.h"

/* Append S (taken) and keep the vector NULL-terminated. */
int
nbd_internal_string_vector_append (struct string_vector *v, char *s)
{
  if (v->len + 2 > v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    char **p = realloc (v->ptr, cap * sizeof *p);
    if (p == NULL)
      return -1;
    v->ptr = p;
    v->cap = cap;
  }
  v->ptr[v->len++] = s;
  v->ptr[v->len] = NULL;
  return 0;
}

void
nbd_internal_string_vector_free (struct string_vector *v)
{
  size_t i;

  for (i = 0; i < v->len; ++i)
    free (v->ptr[i]);
  free (v->ptr);
  v->ptr = NULL;
  v->len = v->cap = 0;
}

/* Replace V by a deep copy of the NULL-terminated list IN. */
int
nbd_internal_copy_string_list (struct string_vector *v, char **in)
{
  struct string_vector copy = { 0 };
  size_t i;

  for (i = 0; in[i] != NULL; ++i) {
    char *s = strdup (in[i]);
    if (s == NULL || nbd_internal_string_vector_append (&copy, s) == -1) {
      free (s);
      nbd_internal_string_vector_free (&copy);
      return -1;
    }
  }
  if (copy.ptr == NULL &&
      nbd_internal_string_vector_append (&copy, NULL) == 0)
    copy.len = 0;
  nbd_internal_string_vector_free (v);
  *v = copy;
  return 0;
}

void
nbd_internal_meta_vector_clear (struct meta_vector *v)
{
  size_t i;

  for (i = 0; i < v->len; ++i)
    free (v->ptr[i].name);
  free (v->ptr);
  v->ptr = NULL;
  v->len = v->cap = 0;
}

/* Record that [start, end) arrived.  Ranges are appended, merged with
 * the last one when they follow it, so data that arrives in order
 * costs O(1) time and memory; out of order, O(1) each, and the check
 * for overlaps waits for nbd_internal_range_covered.  Returns 0, 1 if
 * more bytes arrived than LIMIT (so some of them twice), -1 ENOMEM.
 */
int
nbd_internal_range_add (struct range_vector *v, uint64_t start,
                        uint64_t end, uint64_t limit)
{
  if (end - start > limit - v->total)
    return 1;
  if (v->len > 0 && v->ptr[v->len - 1].end == start) {
    v->ptr[v->len - 1].end = end;
    v->total += end - start;
    return 0;
  }
  if (v->len == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 4;
    struct range *p = realloc (v->ptr, cap * sizeof *p);
    if (p == NULL)
      return -1;
    v->ptr = p;
    v->cap = cap;
  }
  v->ptr[v->len].start = start;
  v->ptr[v->len].end = end;
  v->len++;
  v->total += end - start;
  return 0;
}

static int
compare_ranges (const void *a, const void *b)
{
  const struct range *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Put the ranges in order of their starts: O(n log n). */
void
nbd_internal_range_sort (struct range_vector *v)
{
  if (v->len > 1)
    qsort (v->ptr, v->len, sizeof v->ptr[0], compare_ranges);
}

/* How many bytes arrived, each counted once, or UINT64_MAX if any
 * byte arrived twice.  Sorts and merges the vector: O(n log n).
 */
uint64_t
nbd_internal_range_covered (struct range_vector *v)
{
  size_t i, out = 0;

  nbd_internal_range_sort (v);
  for (i = 0; i < v->len; ++i) {
    if (out > 0 && v->ptr[i].start < v->ptr[out - 1].end)
      return UINT64_MAX;
    if (out > 0 && v->ptr[i].start == v->ptr[out - 1].end)
      v->ptr[out - 1].end = v->ptr[i].end;
    else
      v->ptr[out++] = v->ptr[i];
  }
  v->len = out;
  return v->total;
}

char *
nbd_internal_put_u16 (char *p, uint16_t v)
{
  v = htobe16 (v);
  memcpy (p, &v, sizeof v);
  return p + sizeof v;
}

char *
nbd_internal_put_u32 (char *p, uint32_t v)
{
  v = htobe32 (v);
  memcpy (p, &v, sizeof v);
  return p + sizeof v;
}

/* A string as the protocol sends it: 32-bit length, then the bytes. */
char *
nbd_internal_put_string (char *p, const char *s)
{
  size_t len = strlen (s);

  p = nbd_internal_put_u32 (p, len);
  memcpy (p, s, len);
  return p + len;
}

/* A copy of S safe to print: control characters become '?'. */
char *
nbd_internal_printable_string (const char *s)
{
  char *r = strdup (s), *p;

  if (r)
    for (p = r; *p; ++p)
      if (iscntrl ((unsigned char) *p))
        *p = '?';
  return r;
}
