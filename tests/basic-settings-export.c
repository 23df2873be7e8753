/* basic-settings-export.c: test export name and meta context settings. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "test-common.h"

static void
check_string (char *got, const char *expected, const char *what)
{
  if (got == NULL)
    FAIL ("%s returned NULL: %s", what, nbd_get_error ());
  if (strcmp (got, expected) != 0)
    FAIL ("%s: expected \"%s\", got \"%s\"", what, expected, got);
  free (got);
}

int
main (void)
{
  struct nbd_handle *h;
  char name[4097];

  h = nbd_create ();
  CHECK (h != NULL);

  /* Export name: "" by default, copied on set. */
  check_string (nbd_get_export_name (h), "", "nbd_get_export_name");
  CHECK (nbd_set_export_name (h, "disk1") == 0);
  check_string (nbd_get_export_name (h), "disk1", "nbd_get_export_name");
  CHECK (nbd_set_export_name (h, "") == 0);
  check_string (nbd_get_export_name (h), "", "nbd_get_export_name");

  /* The protocol limits export names to 4096 bytes. */
  memset (name, 'a', 4096);
  name[4096] = '\0';
  CHECK (nbd_set_export_name (h, name) == 0);
  check_string (nbd_get_export_name (h), name, "nbd_get_export_name");

  /* Meta contexts: none by default; kept in order of adding. */
  CHECK (nbd_get_nr_meta_contexts (h) == 0);
  CHECK (nbd_get_meta_context (h, 0) == NULL);
  CHECK_ERROR (EINVAL, "nbd_get_meta_context: ");

  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_add_meta_context (h, "qemu:dirty-bitmap:b") == 0);
  CHECK (nbd_get_nr_meta_contexts (h) == 2);
  check_string (nbd_get_meta_context (h, 0), "base:allocation",
                "nbd_get_meta_context (0)");
  check_string (nbd_get_meta_context (h, 1), "qemu:dirty-bitmap:b",
                "nbd_get_meta_context (1)");
  CHECK (nbd_get_meta_context (h, 2) == NULL);
  CHECK_ERROR (EINVAL, "nbd_get_meta_context: ");

  CHECK (nbd_clear_meta_contexts (h) == 0);
  CHECK (nbd_get_nr_meta_contexts (h) == 0);
  CHECK (nbd_get_meta_context (h, 0) == NULL);
  CHECK (nbd_add_meta_context (h, "x:y") == 0);
  CHECK (nbd_get_nr_meta_contexts (h) == 1);
  check_string (nbd_get_meta_context (h, 0), "x:y",
                "nbd_get_meta_context (0)");

  nbd_close (h);
  exit (EXIT_SUCCESS);
}
