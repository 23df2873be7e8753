/* conform-negotiation.c: what the handshake leaves behind, as in
 * libnbd 1.22: the handshake flags agreed, nbd_can_meta_context before
 * any agreement, and opt mode with a server that is not fixed newstyle.
 */
#include <config.h>

#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

static struct nbd_handle *
connect_to (bool opt_mode, const char *mask)
{
  char *args[] = { "nbdkit", "-s", "--exit-with-parent",
                   (char *) mask, "memory", "1M", NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, opt_mode) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  return h;
}

/* A server without NO_ZEROES: the flags read back without it. */
static void
test_handshake_flags (void)
{
  struct nbd_handle *h = connect_to (false, "--mask-handshake=1");

  CHECK (nbd_get_handshake_flags (h) ==
         LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE);
  nbd_close (h);
}

/* Contexts were requested: asking before SET answered is EINVAL, and
 * again after the export name changes.
 */
static void
test_can_meta_context (void)
{
  struct nbd_handle *h = connect_to (true, "--mask-handshake=3");

  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1);
  CHECK_ERROR (EINVAL, "nbd_can_meta_context: ");
  CHECK (nbd_opt_info (h) == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  /* Setting the same name again changes nothing. */
  CHECK (nbd_set_export_name (h, "") == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  CHECK (nbd_set_export_name (h, "other") == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1);
  CHECK_ERROR (EINVAL, "nbd_can_meta_context: ");
  CHECK (nbd_opt_abort (h) == 0);
  nbd_close (h);
}

/* Not fixed newstyle: opt mode waits in NEGOTIATING, refuses the
 * options that need fixed newstyle, and opt_go sends the export name.
 */
static void
test_plain_newstyle (void)
{
  struct nbd_handle *h = connect_to (true, "--mask-handshake=0");
  char buf[512];

  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_opt_info (h) == -1);
  CHECK_ERROR (ENOTSUP, "nbd_opt_info: ");
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);

  /* Such a server cannot be told to abort: the handle dies, and
   * nbd_opt_abort still succeeds.
   */
  h = connect_to (true, "--mask-handshake=0");
  CHECK (nbd_opt_abort (h) == 0);
  CHECK (nbd_aio_is_dead (h) == 1);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_handshake_flags ();
  test_can_meta_context ();
  test_plain_newstyle ();
  return 0;
}
