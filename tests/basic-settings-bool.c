/* basic-settings-bool.c: test defaults and round trips of boolean settings. */

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

/* Check the default, then set each value and read it back. */
#define ROUND_TRIP(name, dflt)                                          \
  do {                                                                  \
    int r_ = nbd_get_##name (h);                                        \
    if (r_ != (dflt))                                                   \
      FAIL ("nbd_get_" #name ": default %d, expected %d", r_, (dflt)); \
    CHECK (nbd_set_##name (h, !(dflt)) == 0);                          \
    CHECK (nbd_get_##name (h) == !(dflt));                             \
    CHECK (nbd_set_##name (h, (dflt)) == 0);                           \
    CHECK (nbd_get_##name (h) == (dflt));                              \
    CHECK (nbd_set_##name (h, !(dflt)) == 0);                          \
    CHECK (nbd_get_##name (h2) == (dflt));                             \
  } while (0)

int
main (void)
{
  struct nbd_handle *h, *h2;

  /* LIBNBD_DEBUG would change the default of the debug flag. */
  unsetenv ("LIBNBD_DEBUG");

  h = nbd_create ();
  h2 = nbd_create ();
  CHECK (h != NULL && h2 != NULL);

  ROUND_TRIP (debug, false);
  CHECK (nbd_set_debug (h, false) == 0);
  ROUND_TRIP (request_structured_replies, true);
  ROUND_TRIP (full_info, false);
  ROUND_TRIP (request_block_size, true);
  ROUND_TRIP (pread_initialize, true);
  ROUND_TRIP (opt_mode, false);
  ROUND_TRIP (tls_verify_peer, true);

  /* Any non-zero value given as a bool reads back as 1. */
  CHECK (nbd_set_full_info (h, 2) == 0);
  CHECK (nbd_get_full_info (h) == 1);

  nbd_close (h);
  nbd_close (h2);
  exit (EXIT_SUCCESS);
}
