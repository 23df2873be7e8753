/* basic-errors-wrong-state.c: test calls in the wrong state fail EINVAL. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  char buf[512];
  char *s;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory", "1M",
                   NULL };

  requires_program ("nbdkit");

  h = connect_command_or_fail (args);
  CHECK (nbd_aio_is_ready (h) == 1);

  /* Settings for the handshake cannot change once connected. */
  CHECK (nbd_set_tls (h, LIBNBD_TLS_ALLOW) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");
  CHECK (nbd_get_tls (h) == LIBNBD_TLS_DISABLE);

  CHECK (nbd_set_export_name (h, "other") == -1);
  CHECK_ERROR (EINVAL, "nbd_set_export_name: ");
  s = nbd_get_export_name (h);
  CHECK (s != NULL && strcmp (s, "") == 0);
  free (s);

  CHECK (nbd_set_handshake_flags (h, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_handshake_flags: ");

  CHECK (nbd_set_request_structured_replies (h, false) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_request_structured_replies: ");

  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1);
  CHECK_ERROR (EINVAL, "nbd_add_meta_context: ");

  /* A handle connects only once. */
  CHECK (nbd_connect_command (h, args) == -1);
  CHECK_ERROR (EINVAL, "nbd_connect_command: ");

  /* Opt-mode calls need the negotiating state. */
  CHECK (nbd_opt_abort (h) == -1);
  CHECK_ERROR (EINVAL, "nbd_opt_abort: ");

  /* Bad arguments on a connected handle. */
  CHECK (nbd_get_block_size (h, 7) == -1);
  CHECK_ERROR (EINVAL, "nbd_get_block_size: ");
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0x100) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");
  /* FUA is not a flag of reads. */
  CHECK (nbd_pread (h, buf, sizeof buf, 0, LIBNBD_CMD_FLAG_FUA) == -1);
  CHECK_ERROR (EINVAL, "nbd_pread: ");

  /* None of that broke the connection. */
  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
