/* basic-opt-mode.c: opt mode: listing exports and meta contexts, INFO,
 * SET_META_CONTEXT, a refused export, GO and ABORT, against nbdkit.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "opt-callbacks.h"
#include "test-common.h"

#define SIZE (1024 * 1024)

static char *server[] = {
  "nbdkit", "-s", "--exit-with-parent", "--filter=exportname", "memory",
  "1M", "exportname=a", "exportname=b", "exportname-list=explicit",
  "exportname-strict=true", "exportdesc=fixed:the disk", NULL
};

static struct nbd_handle *
connect_in_opt_mode (void)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  return h;
}

/* Listing, a refused export, INFO, meta contexts, then GO. */
static void
test_list_info_go (void)
{
  struct nbd_handle *h = connect_in_opt_mode ();
  struct seen s = { 0 };
  char buf[512];

  CHECK (nbd_opt_list (h, LIST (&s)) == 2);
  CHECK (s.names == 2 && s.a && s.b && s.described);

  /* Not in the list, and the filter is strict: refused, still usable. */
  CHECK (nbd_set_export_name (h, "zzz") == 0);
  CHECK (nbd_opt_info (h) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);

  CHECK (nbd_set_export_name (h, "a") == 0);
  CHECK (nbd_opt_info (h) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_get_size (h) == SIZE);

  CHECK (nbd_opt_list_meta_context (h, CONTEXT (&s)) >= 1);
  CHECK (s.base_allocation);
  s.base_allocation = false;
  CHECK (nbd_opt_set_meta_context (h, CONTEXT (&s)) == 1);
  CHECK (s.base_allocation);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);

  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_get_size (h) == SIZE);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  /* Options are over: opt calls are refused now. */
  CHECK (nbd_opt_list (h, LIST (&s)) == -1);
  CHECK_ERROR (EINVAL, "nbd_opt_list: ");
  nbd_close (h);
}

/* aio_opt_go: the completion runs once, its free once. */
static void
test_aio_opt_go (void)
{
  struct nbd_handle *h = connect_in_opt_mode ();
  struct seen s = { 0 };
  int i;

  CHECK (nbd_set_export_name (h, "b") == 0);
  CHECK (nbd_aio_opt_go (h, COMPLETION (&s)) == 0);
  for (i = 0; i < 1000 && nbd_aio_is_connecting (h); ++i)
    CHECK (nbd_poll (h, 1000) >= 0);
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (s.completions == 1 && s.error == 0);
  CHECK (s.frees == 1);
  nbd_close (h);
  CHECK (s.frees == 1);
}

/* opt_abort ends the connection cleanly; a closed handle refuses I/O
   with EINVAL (ENOTCONN is only for a handle never connected). */
static void
test_abort (void)
{
  struct nbd_handle *h = connect_in_opt_mode ();
  char buf[512];

  CHECK (nbd_opt_abort (h) == 0);
  CHECK (nbd_aio_is_closed (h) == 1);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_list_info_go ();
  test_aio_opt_go ();
  test_abort ();
  return EXIT_SUCCESS;
}
