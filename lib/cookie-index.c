/* cookie-index.c: every unretired command, found by its cookie, so
 * that a reply, nbd_aio_command_completed and the reply-before-sent
 * check each cost O(1) however long the queues are.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <assert.h>

#include "internal.h"

static struct command **
buckets (struct cookie_index *ix)
{
  if (ix->mask == 0)
    ix->mask = COOKIE_INDEX_INLINE - 1;
  return ix->heap ? ix->heap : ix->inline_buckets;
}

static struct command **
bucket_of (struct cookie_index *ix, uint64_t cookie)
{
  struct command **b = buckets (ix);

  return &b[cookie & ix->mask];
}

/* Twice the buckets, the chains split between them.  On allocation
 * failure the index keeps working with longer chains.
 */
static void
grow (struct cookie_index *ix)
{
  struct command **old = buckets (ix), **new;
  size_t n = ix->mask + 1, i;

  if (n > SIZE_MAX / 2 / sizeof *new)
    return;
  new = calloc (2 * n, sizeof *new);
  if (new == NULL)
    return;
  for (i = 0; i < n; ++i) {
    struct command *cmd = old[i], *next;
    for (; cmd; cmd = next) {
      struct command **b = &new[cmd->cookie & (2 * n - 1)];
      next = cmd->bucket_next;
      cmd->bucket_next = *b;
      *b = cmd;
    }
  }
  free (ix->heap);
  ix->heap = new;
  ix->mask = 2 * n - 1;
}

void
nbd_internal_cookie_index_insert (struct cookie_index *ix,
                                  struct command *cmd)
{
  struct command **b;

  if (ix->count / 2 > ix->mask)
    grow (ix);
  b = bucket_of (ix, cmd->cookie);
  cmd->bucket_next = *b;
  *b = cmd;
  ix->count++;
}

struct command *
nbd_internal_cookie_index_find (struct cookie_index *ix, uint64_t cookie)
{
  struct command *cmd = *bucket_of (ix, cookie);

  while (cmd && cmd->cookie != cookie)
    cmd = cmd->bucket_next;
  return cmd;
}

void
nbd_internal_cookie_index_remove (struct cookie_index *ix,
                                  struct command *cmd)
{
  struct command **pp = bucket_of (ix, cmd->cookie);

  while (*pp != cmd) {
    assert (*pp != NULL);
    pp = &(*pp)->bucket_next;
  }
  *pp = cmd->bucket_next;
  cmd->bucket_next = NULL;
  assert (ix->count > 0);
  ix->count--;
}

/* Forget every command (the caller frees them) and the grown buckets. */
void
nbd_internal_cookie_index_reset (struct cookie_index *ix)
{
  free (ix->heap);
  ix->heap = NULL;
  ix->mask = 0;
  ix->count = 0;
  memset (ix->inline_buckets, 0, sizeof ix->inline_buckets);
}
