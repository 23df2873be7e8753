/* basic-settings-flags.c: test handshake flags and strict mode round trips. */

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  uint32_t f;
  uint32_t dflt;

  h = nbd_create ();
  CHECK (h != NULL);

  /* Handshake flags: every flag by default, each subset accepted. */
  CHECK (nbd_get_handshake_flags (h) == LIBNBD_HANDSHAKE_FLAG_MASK);
  for (f = 0; f <= LIBNBD_HANDSHAKE_FLAG_MASK; ++f) {
    if ((f & ~LIBNBD_HANDSHAKE_FLAG_MASK) != 0)
      continue;
    CHECK (nbd_set_handshake_flags (h, f) == 0);
    CHECK (nbd_get_handshake_flags (h) == f);
  }
  CHECK (nbd_set_handshake_flags (h, LIBNBD_HANDSHAKE_FLAG_NO_ZEROES) == 0);
  CHECK (nbd_set_handshake_flags (h, 0x80000000) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_handshake_flags: ");
  CHECK (nbd_set_handshake_flags (h, LIBNBD_HANDSHAKE_FLAG_MASK + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_handshake_flags: ");
  CHECK (nbd_get_handshake_flags (h) == LIBNBD_HANDSHAKE_FLAG_NO_ZEROES);

  /* Strict mode: the default has only known bits and includes the
   * checks every libnbd has enabled by default.
   */
  dflt = nbd_get_strict_mode (h);
  CHECK ((dflt & ~LIBNBD_STRICT_MASK) == 0);
  CHECK (dflt & LIBNBD_STRICT_COMMANDS);
  CHECK (dflt & LIBNBD_STRICT_FLAGS);
  CHECK (dflt & LIBNBD_STRICT_BOUNDS);
  CHECK (dflt & LIBNBD_STRICT_ALIGN);
  CHECK (nbd_set_strict_mode (h, 0) == 0);
  CHECK (nbd_get_strict_mode (h) == 0);
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK) == 0);
  CHECK (nbd_get_strict_mode (h) == LIBNBD_STRICT_MASK);
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_ZERO_SIZE) == 0);
  CHECK (nbd_get_strict_mode (h) == LIBNBD_STRICT_ZERO_SIZE);
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK + 1) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_strict_mode: ");
  CHECK (nbd_get_strict_mode (h) == LIBNBD_STRICT_ZERO_SIZE);

  /* URI transports: any subset of the mask; the default is all. */
  CHECK (nbd_set_uri_allow_transports (h, LIBNBD_ALLOW_TRANSPORT_UNIX) == 0);
  CHECK (nbd_set_uri_allow_transports (h, LIBNBD_ALLOW_TRANSPORT_MASK) == 0);
  CHECK (nbd_set_uri_allow_transports (h, 0x80000000) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_uri_allow_transports: ");

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
