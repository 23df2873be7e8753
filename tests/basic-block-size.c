/* basic-block-size.c: test nbd_get_block_size with and without requesting. */

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"

#define NBDKIT "nbdkit", "-s", "--exit-with-parent"

static void
check (char **args, bool request, int64_t min, int64_t pref, int64_t max)
{
  struct nbd_handle *h;
  int64_t got[3];

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_request_block_size (h, request) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  got[0] = nbd_get_block_size (h, LIBNBD_SIZE_MINIMUM);
  got[1] = nbd_get_block_size (h, LIBNBD_SIZE_PREFERRED);
  got[2] = nbd_get_block_size (h, LIBNBD_SIZE_MAXIMUM);
  if (got[0] != min || got[1] != pref || got[2] != max)
    FAIL ("%s request=%d: got %" PRIi64 "/%" PRIi64 "/%" PRIi64
          ", expected %" PRIi64 "/%" PRIi64 "/%" PRIi64,
          args[3], request, got[0], got[1], got[2], min, pref, max);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  char *eval[] = { NBDKIT, "eval", "get_size=echo 1M", "pread=exit 1",
                   "block_size=echo 512 4096 1M", NULL };
  char *memory[] = { NBDKIT, "memory", "1M", NULL };
  char *oldstyle[] = { NBDKIT, "-o", "eval", "get_size=echo 1M",
                       "pread=exit 1", "block_size=echo 512 4096 1M", NULL };

  requires_program ("nbdkit");

  check (eval, true, 512, 4096, 1024 * 1024);
  /* nbdkit sends sizes only when asked (the protocol lets it do either). */
  check (eval, false, 0, 0, 0);
  /* A plugin with no constraints: nbdkit advertises none. */
  check (memory, true, 0, 0, 0);
  /* Oldstyle has no way to send them. */
  check (oldstyle, true, 0, 0, 0);

  exit (EXIT_SUCCESS);
}
