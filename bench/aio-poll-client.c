/* aio-poll-client.c: the documented aio polling pattern at scale.
 * Issue N small reads at once, then poll, asking after every cookie
 * not yet retired (nbd_aio_command_completed), until all are done.
 * Prints the seconds from the first read issued to the last retired.
 * usage: aio-poll-client SOCKET N
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#include <libnbd.h>

#include "clock.h"

int
main (int argc, char *argv[])
{
  static char buf[512];
  struct nbd_handle *h;
  int64_t *cookies;
  size_t n, i, left;
  double t0;

  if (argc != 3)
    return 2;
  n = strtoul (argv[2], NULL, 10);
  cookies = calloc (n, sizeof *cookies);
  h = nbd_create ();
  if (!cookies || !h || nbd_connect_unix (h, argv[1]) == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    return 1;
  }
  t0 = now ();
  for (i = 0; i < n; ++i) {
    cookies[i] = nbd_aio_pread (h, buf, sizeof buf, (i % 2048) * 512,
                                NBD_NULL_COMPLETION, 0);
    if (cookies[i] == -1) {
      fprintf (stderr, "%s\n", nbd_get_error ());
      return 1;
    }
  }
  for (left = n; left > 0; ) {
    if (nbd_poll (h, -1) == -1) {
      fprintf (stderr, "%s\n", nbd_get_error ());
      return 1;
    }
    for (i = 0; i < n; ++i) {
      int r;
      if (cookies[i] == 0)
        continue;
      r = nbd_aio_command_completed (h, cookies[i]);
      if (r == -1) {
        fprintf (stderr, "%s\n", nbd_get_error ());
        return 1;
      }
      if (r == 1) {
        cookies[i] = 0;
        left--;
      }
    }
  }
  printf ("%.3f\n", now () - t0);
  nbd_close (h);
  free (cookies);
  return 0;
}
