/* range-log.c: lists of byte ranges (see range-log.h). */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "range-log.h"

void
range_log_add (struct range_log *l, uint64_t offset, uint64_t length)
{
  size_t cap;
  struct range *v;

  if (l->len == l->cap) {
    cap = l->cap ? l->cap * 2 : 16;
    v = realloc (l->v, cap * sizeof *v);
    if (v == NULL) {
      perror ("realloc");
      exit (EXIT_FAILURE);
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->len++] = (struct range) { offset, length };
}

bool
range_log_take (struct range_log *l, uint64_t *offset, uint64_t *length)
{
  if (l->len == 0)
    return false;
  *offset = l->v[0].offset;
  *length = l->v[0].length;
  memmove (l->v, l->v + 1, --l->len * sizeof *l->v);
  return true;
}

uint64_t
range_log_move (struct range_log *from, struct range_log *to, size_t n)
{
  size_t i = n == 0 || n > from->len ? 0 : from->len - n;
  uint64_t bytes = 0;

  for (; i < from->len; i++) {
    range_log_add (to, from->v[i].offset, from->v[i].length);
    bytes += from->v[i].length;
  }
  from->len = 0;
  return bytes;
}

void
range_log_free (struct range_log *l)
{
  free (l->v);
  l->v = NULL;
  l->len = l->cap = 0;
}
