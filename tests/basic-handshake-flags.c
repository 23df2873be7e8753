/* basic-handshake-flags.c: connecting with each set of handshake flags:
 * without FIXED_NEWSTYLE the export is chosen with NBD_OPT_EXPORT_NAME
 * (no structured replies), and without NO_ZEROES the 124 bytes of
 * padding after it must be read too.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)

int
main (void)
{
  char *server[] = { "nbdkit", "-s", "--exit-with-parent", "pattern",
                     "1M", NULL };
  uint32_t flags;

  requires_program ("nbdkit");
  for (flags = 0; flags <= LIBNBD_HANDSHAKE_FLAG_MASK; ++flags) {
    struct nbd_handle *h = nbd_create ();
    bool fixed = flags & LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE;
    unsigned char buf[16];

    CHECK (h != NULL);
    CHECK (nbd_set_handshake_flags (h, flags) == 0);
    CHECK (nbd_connect_command (h, server) == 0);
    CHECK (strcmp (nbd_get_protocol (h),
                   fixed ? "newstyle-fixed" : "newstyle") == 0);
    CHECK (nbd_get_structured_replies_negotiated (h) == fixed);
    CHECK (nbd_get_size (h) == SIZE);
    /* The pattern plugin: each 8 bytes hold their offset, big-endian.
     * A misread of the padding would shift every byte.
     */
    CHECK (nbd_pread (h, buf, sizeof buf, 4096, 0) == 0);
    CHECK (buf[6] == 0x10 && buf[7] == 0x00 && buf[14] == 0x10 &&
           buf[15] == 0x08);
    CHECK (nbd_shutdown (h, 0) == 0);
    nbd_close (h);
  }
  return EXIT_SUCCESS;
}
