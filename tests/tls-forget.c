/* tls-forget.c: what the server said in plaintext before STARTTLS is
 * forgotten once TLS starts, as the server forgets it.
 *
 * tls-forget PSKFILE -- SERVER ARGV...
 *
 * In opt mode, nbd_opt_info in plaintext learns the export's size,
 * flags and canonical name; after nbd_opt_starttls none of them may
 * be reported (a man in the middle could have written them) until
 * the server says them again under TLS.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  char *name;

  if (argc < 4 || strcmp (argv[2], "--") != 0)
    FAIL ("usage: tls-forget PSKFILE -- SERVER ARGV...");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_tls (h, LIBNBD_TLS_DISABLE) == 0);
  CHECK (nbd_set_tls_psk_file (h, argv[1]) == 0);
  CHECK (nbd_set_tls_username (h, "alice") == 0);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_set_full_info (h, true) == 0);
  CHECK (nbd_connect_command (h, &argv[3]) == 0);
  CHECK (nbd_get_tls_negotiated (h) == 0);

  /* Plaintext: the export as the server describes it. */
  CHECK (nbd_opt_info (h) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  name = nbd_get_canonical_export_name (h);
  CHECK (name != NULL);
  free (name);

  /* TLS: all of that is gone. */
  CHECK (nbd_opt_starttls (h) == 1);
  CHECK (nbd_get_size (h) == -1);
  CHECK_ERROR (EINVAL, "nbd_get_size: server has not returned export flags");
  CHECK (nbd_is_read_only (h) == -1);
  CHECK (nbd_get_canonical_export_name (h) == NULL);

  /* Until the server says it again, over TLS. */
  CHECK (nbd_opt_info (h) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  printf ("tls-forget: OK\n");
  exit (EXIT_SUCCESS);
}
