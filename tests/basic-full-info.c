/* basic-full-info.c: test canonical export name and description getters. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

/* The plugin's default export is "canon"; its description names the
 * export it was opened with.
 */
static char *args[] = {
  "nbdkit", "-s", "--exit-with-parent", "eval",
  "get_size=echo 1M", "pread=exit 1",
  "open=echo \"$3\"",
  "default_export=echo canon",
  "export_description=echo \"export $2 here\"",
  NULL
};

static void
check_string (char *got, const char *expected, const char *what)
{
  if (got == NULL)
    FAIL ("%s: NULL: %s", what, nbd_get_error ());
  if (strcmp (got, expected) != 0)
    FAIL ("%s: got \"%s\", expected \"%s\"", what, got, expected);
  free (got);
}

int
main (void)
{
  struct nbd_handle *h;

  requires_program ("nbdkit");

  /* Full info, default export: the server names it "canon". */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_full_info (h, true) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  check_string (nbd_get_canonical_export_name (h), "canon",
                "nbd_get_canonical_export_name");
  check_string (nbd_get_export_description (h), "export canon here",
                "nbd_get_export_description");
  check_string (nbd_get_export_name (h), "", "nbd_get_export_name");
  nbd_close (h);

  /* Full info, named export. */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_full_info (h, true) == 0);
  CHECK (nbd_set_export_name (h, "named") == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  check_string (nbd_get_canonical_export_name (h), "named",
                "nbd_get_canonical_export_name");
  check_string (nbd_get_export_description (h), "export named here",
                "nbd_get_export_description");
  nbd_close (h);

  /* Without full info nothing is requested, and nbdkit sends neither
   * (it would be allowed to): the getters fail with ENOTSUP.
   */
  h = connect_command_or_fail (args);
  CHECK (nbd_get_canonical_export_name (h) == NULL);
  CHECK_ERROR (ENOTSUP, "nbd_get_canonical_export_name: ");
  CHECK (nbd_get_export_description (h) == NULL);
  CHECK_ERROR (ENOTSUP, "nbd_get_export_description: ");
  CHECK (nbd_get_size (h) == 1024 * 1024);
  nbd_close (h);

  /* Opt mode: names from one nbd_opt_info do not outlive the next,
   * which asked for none.
   */
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_set_full_info (h, true) == 0);
  CHECK (nbd_set_export_name (h, "named") == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  CHECK (nbd_opt_info (h) == 0);
  check_string (nbd_get_canonical_export_name (h), "named",
                "nbd_get_canonical_export_name");
  CHECK (nbd_set_full_info (h, false) == 0);
  CHECK (nbd_opt_info (h) == 0);
  CHECK (nbd_get_canonical_export_name (h) == NULL);
  CHECK_ERROR (ENOTSUP, "nbd_get_canonical_export_name: ");
  CHECK (nbd_get_export_description (h) == NULL);
  CHECK_ERROR (ENOTSUP, "nbd_get_export_description: ");
  CHECK (nbd_opt_abort (h) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
