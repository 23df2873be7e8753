/* basic-handle-name.c: test default and set handle names, private data. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include <libnbd.h>

#include "test-common.h"

/* Default names are "nbd" followed by a positive decimal number. */
static unsigned long
default_number (const char *name)
{
  char *end;
  unsigned long n;

  if (strncmp (name, "nbd", 3) != 0 || name[3] < '1' || name[3] > '9')
    FAIL ("default handle name \"%s\" is not like \"nbd1\"", name);
  n = strtoul (name + 3, &end, 10);
  if (*end != '\0')
    FAIL ("default handle name \"%s\" is not like \"nbd1\"", name);
  return n;
}

int
main (void)
{
  struct nbd_handle *h1, *h2;
  char *name1, *name2, *name;
  const char *set = "my-handle";

  h1 = nbd_create ();
  h2 = nbd_create ();
  CHECK (h1 != NULL && h2 != NULL);

  /* Each call returns a fresh string the caller frees. */
  name1 = nbd_get_handle_name (h1);
  name2 = nbd_get_handle_name (h2);
  CHECK (name1 != NULL && name2 != NULL);
  if (default_number (name1) == default_number (name2))
    FAIL ("two handles share the default name \"%s\"", name1);
  name = nbd_get_handle_name (h1);
  CHECK (name != NULL);
  CHECK (name != name1);
  CHECK (strcmp (name, name1) == 0);
  free (name);

  /* Set, then get: the library keeps its own copy. */
  {
    char buf[32];

    strcpy (buf, set);
    CHECK (nbd_set_handle_name (h1, buf) == 0);
    memset (buf, 'x', sizeof buf - 1);
  }
  name = nbd_get_handle_name (h1);
  CHECK (name != NULL);
  if (strcmp (name, set) != 0)
    FAIL ("nbd_get_handle_name: expected \"%s\", got \"%s\"", set, name);
  free (name);

  /* The other handle keeps its name. */
  name = nbd_get_handle_name (h2);
  CHECK (name != NULL && strcmp (name, name2) == 0);
  free (name);

  /* Private data: default 0, set returns the old value, get the new. */
  CHECK (nbd_get_private_data (h1) == 0);
  CHECK (nbd_set_private_data (h1, 42) == 0);
  CHECK (nbd_get_private_data (h1) == 42);
  CHECK (nbd_set_private_data (h1, UINTPTR_MAX) == 42);
  CHECK (nbd_get_private_data (h1) == UINTPTR_MAX);
  CHECK (nbd_get_private_data (h2) == 0);

  free (name1);
  free (name2);
  nbd_close (h1);
  nbd_close (h2);
  exit (EXIT_SUCCESS);
}
