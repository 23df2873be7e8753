/* io-block-status.c: base:allocation extents of a sparse export. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)
#define MAX_EXTENTS 1024

/* Allocated: [64K, 128K) and [256K, 288K); everything else is a hole. */
#define DATA_LAYOUT "@65536 ( 0x55 )*65536 @262144 1 2 3"

struct extents {
  uint64_t offset;              /* offset the callback was given */
  uint64_t start[MAX_EXTENTS];  /* derived start of each extent */
  uint32_t len[MAX_EXTENTS];
  uint32_t flags[MAX_EXTENTS];
  size_t n;
  unsigned calls;
};

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  struct extents *e = user_data;
  uint64_t pos = offset;
  size_t i;

  e->calls++;
  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) != 0)
    FAIL ("unexpected context %s", metacontext);
  if (*error != 0)
    FAIL ("extent callback called with *error = %d", *error);
  if (nr_entries == 0 || nr_entries % 2 != 0)
    FAIL ("bad number of entries %zu", nr_entries);
  e->offset = offset;
  e->n = 0;
  for (i = 0; i < nr_entries; i += 2) {
    if (e->n == MAX_EXTENTS)
      FAIL ("too many extents");
    e->start[e->n] = pos;
    e->len[e->n] = entries[i];
    e->flags[e->n] = entries[i + 1];
    pos += entries[i];
    e->n++;
  }
  return 0;
}

static struct nbd_handle *
connect_data (const char *filter)
{
  struct nbd_handle *h;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "data",
                   DATA_LAYOUT, "size=1M", NULL, NULL };

  if (filter) {
    /* Put the filter before the plugin name. */
    memmove (&args[4], &args[3], 4 * sizeof args[0]);
    args[3] = (char *) filter;
  }
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  return h;
}

/* The status flags of the byte at OFFSET, from the extents in E. */
static uint32_t
flags_at (const struct extents *e, uint64_t offset)
{
  size_t i;

  for (i = 0; i < e->n; ++i)
    if (offset >= e->start[i] && offset - e->start[i] < e->len[i])
      return e->flags[i];
  FAIL ("no extent covers offset %llu", (unsigned long long) offset);
}

/* Query [offset, offset+count) and check the extents cover it. */
static void
query (struct nbd_handle *h, struct extents *e, uint64_t count,
       uint64_t offset, uint32_t flags)
{
  uint64_t total = 0;
  size_t i;

  memset (e, 0, sizeof *e);
  CHECK (nbd_block_status (h, count, offset,
                           (nbd_extent_callback) { .callback = extent_cb,
                                                   .user_data = e },
                           flags) == 0);
  CHECK (e->calls == 1);
  CHECK (e->offset == offset);
  for (i = 0; i < e->n; ++i) {
    if (e->len[i] == 0)
      FAIL ("zero length extent %zu", i);
    total += e->len[i];
  }
  /* The server may describe less than asked, never nothing. */
  CHECK (total > 0);
}

static void
test_sparse (void)
{
  struct nbd_handle *h = connect_data (NULL);
  struct extents *e = malloc (sizeof *e);
  uint64_t total;
  size_t i;

  CHECK (e != NULL);
  query (h, e, SIZE, 0, 0);
  for (i = 0, total = 0; i < e->n; ++i)
    total += e->len[i];
  CHECK (total == SIZE);

  CHECK ((flags_at (e, 0) & (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO)) ==
         (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO));
  CHECK ((flags_at (e, 65536) & LIBNBD_STATE_HOLE) == 0);
  CHECK ((flags_at (e, 131071) & LIBNBD_STATE_HOLE) == 0);
  CHECK ((flags_at (e, 131072) & (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO)) ==
         (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO));
  CHECK ((flags_at (e, 262144) & LIBNBD_STATE_HOLE) == 0);
  CHECK ((flags_at (e, SIZE - 1) & (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO)) ==
         (LIBNBD_STATE_HOLE|LIBNBD_STATE_ZERO));

  /* A request starting inside the data. */
  query (h, e, 100000, 70000, 0);
  CHECK ((flags_at (e, 70000) & LIBNBD_STATE_HOLE) == 0);

  /* REQ_ONE: exactly one extent, starting at the requested offset. */
  query (h, e, SIZE - 65536, 65536, LIBNBD_CMD_FLAG_REQ_ONE);
  CHECK (e->n == 1);
  CHECK (e->len[0] <= SIZE - 65536);
  CHECK ((e->flags[0] & LIBNBD_STATE_HOLE) == 0);
  query (h, e, SIZE, 0, LIBNBD_CMD_FLAG_REQ_ONE);
  CHECK (e->n == 1);
  CHECK (e->len[0] <= 65536);
  CHECK (e->flags[0] & LIBNBD_STATE_HOLE);

  free (e);
  nbd_close (h);
}

/* With the noextents filter everything is reported as allocated. */
static void
test_noextents (void)
{
  struct nbd_handle *h = connect_data ("--filter=noextents");
  struct extents *e = malloc (sizeof *e);
  size_t i;

  CHECK (e != NULL);
  query (h, e, SIZE, 0, 0);
  for (i = 0; i < e->n; ++i)
    CHECK (e->flags[i] == 0);
  query (h, e, 1000, 1, LIBNBD_CMD_FLAG_REQ_ONE);
  CHECK (e->n == 1);
  CHECK (e->flags[0] == 0);
  free (e);
  nbd_close (h);
}

/* The memory plugin, after writes at known places. */
static void
test_memory (void)
{
  struct nbd_handle *h;
  struct extents *e = malloc (sizeof *e);
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=16M", NULL };
  static char buf[65536];

  CHECK (e != NULL);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  memset (buf, 1, sizeof buf);
  CHECK (nbd_pwrite (h, buf, sizeof buf, 4 * 1024 * 1024, 0) == 0);
  CHECK (nbd_pwrite (h, buf, sizeof buf, 12 * 1024 * 1024, 0) == 0);

  query (h, e, 16 * 1024 * 1024, 0, 0);
  CHECK (flags_at (e, 0) & LIBNBD_STATE_HOLE);
  CHECK ((flags_at (e, 4 * 1024 * 1024) & LIBNBD_STATE_HOLE) == 0);
  CHECK ((flags_at (e, 4 * 1024 * 1024 + 65535) & LIBNBD_STATE_HOLE) == 0);
  CHECK (flags_at (e, 8 * 1024 * 1024) & LIBNBD_STATE_HOLE);
  CHECK ((flags_at (e, 12 * 1024 * 1024 + 100) & LIBNBD_STATE_HOLE) == 0);

  free (e);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_sparse ();
  test_noextents ();
  test_memory ();
  exit (EXIT_SUCCESS);
}
