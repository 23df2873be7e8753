/* basic-stats-handshake.c: the handshake counts in nbd_stats_chunks_*,
 * as libnbd 1.22 counts it: each option sent is a chunk, and of what
 * the server sends only its greeting is (option replies are not). */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  char *server[] = { "nbdkit", "-s", "--exit-with-parent", "null", "1M",
                     NULL };
  uint64_t cs, cr;

  requires_program ("nbdkit");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_stats_chunks_sent (h) == 0);
  CHECK (nbd_stats_chunks_received (h) == 0);
  CHECK (nbd_connect_command (h, server) == 0);

  /* nbdkit 1.32 refuses EXTENDED_HEADERS, then STRUCTURED_REPLY and
   * GO are agreed: three options; no meta context was asked for. */
  CHECK (nbd_get_extended_headers_negotiated (h) == 0);
  cs = nbd_stats_chunks_sent (h);
  cr = nbd_stats_chunks_received (h);
  CHECK (cs == 3);
  CHECK (cr == 1);
  CHECK (nbd_stats_bytes_sent (h) > cs);
  CHECK (nbd_stats_bytes_received (h) > cr);

  /* A command and its simple reply are one chunk each way. */
  CHECK (nbd_flush (h, 0) == 0);
  CHECK (nbd_stats_chunks_sent (h) == cs + 1);
  CHECK (nbd_stats_chunks_received (h) == cr + 1);

  /* NBD_CMD_DISC is one more chunk sent. */
  CHECK (nbd_shutdown (h, 0) == 0);
  CHECK (nbd_stats_chunks_sent (h) == cs + 2);
  nbd_close (h);
  return 0;
}
