/* worst-case-client.c: one adversarial reply pattern, CPU time measured. */
/* Built against Debian's libnbd (bench/worst-case.sh); the same binary
 * runs on ours through LD_LIBRARY_PATH.  Usage:
 *   worst-case-client FAKE-SERVER PATTERN
 * Prints the CPU seconds (user + system) the client spent on the one
 * call that meets the pattern, and whether that call succeeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include <libnbd.h>

#include "../tests/noop-callbacks.h"

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int
main (int argc, char *argv[])
{
  static char buf[1024 * 1024];
  struct nbd_handle *h;
  const char *pattern;
  double start;
  int r;

  if (argc != 3) {
    fprintf (stderr, "usage: %s FAKE-SERVER PATTERN\n", argv[0]);
    exit (EXIT_FAILURE);
  }
  pattern = argv[2];
  char *args[] = { argv[1], (char *) pattern, NULL };
  h = nbd_create ();
  if (h == NULL ||
      nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1 ||
      nbd_set_opt_mode (h, strcmp (pattern, "long-list") == 0) == -1 ||
      nbd_connect_command (h, args) == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  start = cpu_seconds ();
  if (strcmp (pattern, "many-extents") == 0)
    r = nbd_block_status (h, 100000, 0, (nbd_extent_callback) {
                            .callback = noop_extent_cb }, 0);
  else if (strcmp (pattern, "long-list") == 0)
    r = nbd_opt_list (h, (nbd_list_callback) { .callback = noop_list_cb });
  else
    r = nbd_pread (h, buf, sizeof buf, 0, 0);
  printf ("%.3f %s\n", cpu_seconds () - start, r == -1 ? "failed" : "ok");
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
