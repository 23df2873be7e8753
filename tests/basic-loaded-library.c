/* basic-loaded-library.c: test the libnbd.so mapped is the one just built. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include <libnbd.h>

#include "test-common.h"

int
main (void)
{
  struct nbd_handle *h;
  static char want[PATH_MAX], got[PATH_MAX], line[PATH_MAX + 256];
  const char *built;
  FILE *fp;
  int found = 0;

  /* Use the library, so it is certainly linked and mapped. */
  h = nbd_create ();
  CHECK (h != NULL);

  built = getenv ("LIBNBD_BUILT_LIBRARY");
  if (built == NULL || built[0] == '\0')
    FAIL ("LIBNBD_BUILT_LIBRARY is not set: run this test through ../run");
  if (realpath (built, want) == NULL)
    FAIL ("realpath: %s: %m", built);

  fp = fopen ("/proc/self/maps", "r");
  if (fp == NULL)
    FAIL ("/proc/self/maps: %m");
  while (fgets (line, sizeof line, fp) != NULL) {
    char *path = strchr (line, '/');
    size_t len;

    if (path == NULL || strstr (path, "libnbd.so") == NULL)
      continue;
    len = strlen (path);
    if (len > 0 && path[len-1] == '\n')
      path[len-1] = '\0';
    if (realpath (path, got) == NULL)
      FAIL ("realpath: %s: %m", path);
    /* Every mapping must be ours: two libnbds would be just as wrong. */
    if (strcmp (got, want) != 0)
      FAIL ("mapped %s, expected %s (%s)", got, want, built);
    found = 1;
  }
  fclose (fp);
  if (!found)
    FAIL ("no libnbd.so is mapped into this process");

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
