/* misbehave-size-too-big.c: an export size above INT64_MAX fails connecting. */
/* The server advertises an export of 2^63 bytes, which does not fit
 * the int64_t nbd_get_size returns.  Expected: connecting fails, with
 * an errno and a message naming nbd_connect_command.
 */

#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "misbehave-common.h"

int
main (int argc, char *argv[])
{
  struct nbd_handle *h;
  static char path[4096];
  char *args[] = { path, "size-too-big", NULL };
  const char *msg;

  fake_server_path (argv[0], path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_command (h, args) != -1)
    FAIL ("connected to a server advertising %llu bytes (size %lld)",
          (unsigned long long) INT64_MAX + 1,
          (long long) nbd_get_size (h));
  msg = nbd_get_error ();
  CHECK (msg != NULL);
  CHECK (strncmp (msg, "nbd_connect_command: ", 21) == 0);
  CHECK (nbd_get_errno () != 0);
  CHECK (nbd_aio_is_ready (h) == 0);
  /* The size is never reported as a negative number. */
  CHECK (nbd_get_size (h) == -1);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
