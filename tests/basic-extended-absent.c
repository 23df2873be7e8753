/* basic-extended-absent.c: against a server without extended headers
 * (nbdkit 1.32), they are asked for but not negotiated, the payload
 * flag is absent, and a filtered block status is refused as libnbd
 * 1.22 refuses it under the default strict mode.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

static int
extent64_cb (void *opaque, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  FAIL ("extent callback called for a refused command");
}

static int
completion_cb (void *user_data, int *error)
{
  int *err = user_data;

  *err = *error;
  return 0;
}

int
main (void)
{
  char *server[] = { "nbdkit", "-s", "--exit-with-parent", "memory", "1M",
                     NULL };
  char *contexts[] = { LIBNBD_CONTEXT_BASE_ALLOCATION, NULL };
  nbd_extent64_callback cb = { .callback = extent64_cb };
  struct nbd_handle *h;
  int err = -1;

  requires_program ("nbdkit");

  /* Opt mode: the server does not know the option. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_opt_extended_headers (h) == 0);
  CHECK (nbd_get_extended_headers_negotiated (h) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  /* The aio form sends the option; its completion sees the refusal. */
  CHECK (nbd_aio_opt_extended_headers (h, (nbd_completion_callback) {
           .callback = completion_cb, .user_data = &err }) == 0);
  while (err == -1)
    CHECK (nbd_poll (h, -1) != -1);
  CHECK (err == ENOTSUP);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  nbd_close (h);

  /* A normal connection. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_get_request_extended_headers (h) == 1);
  CHECK (nbd_get_extended_headers_negotiated (h) == 0);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (nbd_can_block_status_payload (h) == 0);

  CHECK (nbd_block_status_filter (h, 4096, 0, contexts, cb, 0) == -1);
  CHECK_ERROR (ENOTSUP, "nbd_block_status_filter: ");
  CHECK (nbd_aio_block_status_filter (h, 4096, 0, contexts, cb,
                                      NBD_NULL_COMPLETION, 0) == -1);
  CHECK_ERROR (ENOTSUP, "nbd_aio_block_status_filter: ");
  CHECK (nbd_aio_in_flight (h) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
