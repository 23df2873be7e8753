/* misbehave-extra-context.c: a meta context the client never asked for
 * is ignored.
 */
/* The server's NBD_OPT_SET_META_CONTEXT reply names base:allocation
 * (requested) and fake:unrequested (not).  Expected, as in libnbd:
 * the handshake succeeds, base:allocation is agreed and the other one
 * is not reported by nbd_can_meta_context.
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>

#include <libnbd.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  struct nbd_handle *h = connect_scenario (argv[0], "extra-context", true);

  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  CHECK (nbd_can_meta_context (h, "fake:unrequested") == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
