/* basic-structured-replies.c: test structured replies are negotiated or not. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

/* Connect, requesting structured replies if REQUEST, to nbdkit memory
 * (with --no-sr if NO_SR); check what was negotiated.
 */
static void
check (bool request, bool no_sr, int expect)
{
  struct nbd_handle *h;
  char *with_sr[] = { "nbdkit", "-s", "--exit-with-parent",
                      "memory", "1M", NULL };
  char *without_sr[] = { "nbdkit", "-s", "--exit-with-parent", "--no-sr",
                         "memory", "1M", NULL };
  char **args = no_sr ? without_sr : with_sr;
  char buf[512];
  int r;

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_request_structured_replies (h, request) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  r = nbd_get_structured_replies_negotiated (h);
  if (r != expect)
    FAIL ("request=%d no_sr=%d: negotiated %d, expected %d",
          request, no_sr, r, expect);
  /* The request setting is not changed by the outcome. */
  CHECK (nbd_get_request_structured_replies (h) == request);
  /* DF needs structured replies; nbdkit offers it whenever it can. */
  CHECK (nbd_can_df (h) == expect);
  /* Reads work either way. */
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");

  check (true, false, 1);
  check (false, false, 0);
  check (true, true, 0);
  check (false, true, 0);

  exit (EXIT_SUCCESS);
}
