/* version.c: --version, the versions of a tool and of the libnbd it
 * runs on, each with its --with-extra string as libnbd 1.24 shows it.
 */
#include <config.h>

#include <stdio.h>

#include <libnbd.h>

#include "version.h"

/* " (EXTRA)" if there is one, and the end of the line. */
static void
print_extra (const char *extra)
{
  if (extra && *extra)
    printf (" (%s)", extra);
  putchar ('\n');
}

void
print_version (const char *program)
{
  struct nbd_handle *nbd;

  printf ("%s %s", program, PACKAGE_VERSION);
  print_extra (LIBNBD_VERSION_EXTRA);
  /* Print the first line now in case the library fails below. */
  fflush (stdout);

  /* The library loaded may be another build than the one compiled
   * against; ask it.
   */
  nbd = nbd_create ();
  if (nbd == NULL)
    return;
  printf ("%s %s", nbd_get_package_name (nbd), nbd_get_version (nbd));
  /* A library older than 1.24 has no extra string. */
#ifdef LIBNBD_HAVE_NBD_GET_VERSION_EXTRA
  print_extra (nbd_get_version_extra (nbd));
#else
  print_extra ("");
#endif
  nbd_close (nbd);
}
