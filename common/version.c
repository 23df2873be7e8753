/* version.c: --version, the versions of a tool and of the libnbd it
 * runs on.
 */
#include <config.h>

#include <stdio.h>

#include <libnbd.h>

#include "version.h"

void
print_version (const char *program)
{
  struct nbd_handle *nbd;

  printf ("%s %s\n", program, PACKAGE_VERSION);
  /* Print the first line now in case the library fails below. */
  fflush (stdout);

  /* The library loaded may be another build than the one compiled
   * against; ask it.
   */
  nbd = nbd_create ();
  if (nbd == NULL)
    return;
  printf ("%s %s\n", nbd_get_package_name (nbd), nbd_get_version (nbd));
  nbd_close (nbd);
}
