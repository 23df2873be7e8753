/* basic-errors-invalid-args.c: test NULL, bad enums and bad flags fail. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

/* This test passes NULL on purpose: drop the nonnull attributes. */
#define LIBNBD_ATTRIBUTE_NONNULL(...)
#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  char *s;

  h = nbd_create ();
  CHECK (h != NULL);

  /* NULL where a string is required: EFAULT, setting unchanged. */
  CHECK (nbd_set_export_name (h, "keep") == 0);
  CHECK (nbd_set_export_name (h, NULL) == -1);
  CHECK_ERROR (EFAULT, "nbd_set_export_name: ");
  s = nbd_get_export_name (h);
  CHECK (s != NULL && strcmp (s, "keep") == 0);
  free (s);

  CHECK (nbd_set_handle_name (h, NULL) == -1);
  CHECK_ERROR (EFAULT, "nbd_set_handle_name: ");

  CHECK (nbd_add_meta_context (h, NULL) == -1);
  CHECK_ERROR (EFAULT, "nbd_add_meta_context: ");
  CHECK (nbd_get_nr_meta_contexts (h) == 0);

  CHECK (nbd_connect_uri (h, NULL) == -1);
  CHECK_ERROR (EFAULT, "nbd_connect_uri: ");
  CHECK (nbd_aio_is_created (h) == 1);

  /* Enum out of range: EINVAL, setting unchanged. */
  CHECK (nbd_set_tls (h, 99) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");
  CHECK (nbd_get_tls (h) == LIBNBD_TLS_DISABLE);
  CHECK (nbd_set_tls (h, -1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");

  CHECK (nbd_set_uri_allow_tls (h, 7) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_tls: ");

  /* Flags outside the mask: EINVAL, setting unchanged. */
  CHECK (nbd_set_handshake_flags (h, LIBNBD_HANDSHAKE_FLAG_MASK + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_handshake_flags: ");
  CHECK (nbd_get_handshake_flags (h) == LIBNBD_HANDSHAKE_FLAG_MASK);

  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_strict_mode: ");

  CHECK (nbd_set_uri_allow_transports (h,
                                       LIBNBD_ALLOW_TRANSPORT_MASK + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_transports: ");

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
