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

/* Record that [start, end) arrived.  The vector stays sorted and
 * merged, so data that arrives in order costs O(1).  Returns 0, 1 if
 * the range overlaps one already seen (nothing recorded), -1 ENOMEM.
 */
int
nbd_internal_range_add (struct range_vector *v, uint64_t start,
                        uint64_t end)
{
  size_t lo = 0, hi = v->len, i;

  /* First range whose end >= start (binary search). */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (v->ptr[mid].end < start)
      lo = mid + 1;
    else
      hi = mid;
  }
  i = lo;
  if (i < v->len && v->ptr[i].start < end && start < v->ptr[i].end)
    return 1;
  if (i > 0 && v->ptr[i - 1].end > start)
    return 1;
  /* Merge with a neighbour that touches. */
  if (i < v->len && v->ptr[i].end == start) {
    if (i + 1 < v->len && v->ptr[i + 1].start < end)
      return 1;
    v->ptr[i].end = end;
    if (i + 1 < v->len && v->ptr[i + 1].start == end) {
      v->ptr[i].end = v->ptr[i + 1].end;
      memmove (&v->ptr[i + 1], &v->ptr[i + 2],
               (v->len - i - 2) * sizeof v->ptr[0]);
      v->len--;
    }
    return 0;
  }
  if (i < v->len && v->ptr[i].start == end) {
    v->ptr[i].start = start;
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
  memmove (&v->ptr[i + 1], &v->ptr[i], (v->len - i) * sizeof v->ptr[0]);
  v->ptr[i].start = start;
  v->ptr[i].end = end;
  v->len++;
  return 0;
}

uint64_t
nbd_internal_range_covered (const struct range_vector *v)
{
  uint64_t total = 0;
  size_t i;

  for (i = 0; i < v->len; ++i)
    total += v->ptr[i].end - v->ptr[i].start;
  return total;
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
