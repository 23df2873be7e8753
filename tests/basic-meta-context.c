/* basic-meta-context.c: test can_meta_context after negotiating contexts. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

#define NBDKIT "nbdkit", "-s", "--exit-with-parent"

/* Connect with ARGS, having requested CTX if not NULL (and structured
 * replies if SR); return can_meta_context for base:allocation.
 */
static int
negotiated (char **args, const char *ctx, bool sr)
{
  struct nbd_handle *h;
  int r;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_request_structured_replies (h, sr) == 0);
  if (ctx)
    CHECK (nbd_add_meta_context (h, ctx) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  r = nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION);
  CHECK (r == 0 || r == 1);
  /* A context nobody asked for is never negotiated. */
  CHECK (nbd_can_meta_context (h, "x-basic:none") == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return r;
}

int
main (void)
{
  char *memory[] = { NBDKIT, "memory", "1M", NULL };

  requires_program ("nbdkit");

  if (negotiated (memory, LIBNBD_CONTEXT_BASE_ALLOCATION, true) != 1)
    FAIL ("base:allocation requested but not negotiated");
  if (negotiated (memory, NULL, true) != 0)
    FAIL ("base:allocation negotiated without being requested");
  if (negotiated (memory, "x-basic:other", true) != 0)
    FAIL ("base:allocation negotiated when another context was asked");
  if (negotiated (memory, LIBNBD_CONTEXT_BASE_ALLOCATION, false) != 0)
    FAIL ("base:allocation negotiated without structured replies");

  exit (EXIT_SUCCESS);
}
