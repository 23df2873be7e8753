/* basic-lifecycle.c: test creating and closing handles, and the constants. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_HANDLES 100

int
main (void)
{
  struct nbd_handle *h;
  struct nbd_handle *hs[NR_HANDLES];
  const char *s;
  unsigned major, minor, release;
  int r;
  size_t i;

  /* Closing NULL is allowed and does nothing. */
  nbd_close (NULL);

  h = nbd_create ();
  CHECK (h != NULL);

  /* A new handle is in the created state and nothing else. */
  CHECK (nbd_aio_is_created (h) == 1);
  CHECK (nbd_aio_is_connecting (h) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 0);
  CHECK (nbd_aio_is_ready (h) == 0);
  CHECK (nbd_aio_is_processing (h) == 0);
  CHECK (nbd_aio_is_dead (h) == 0);
  CHECK (nbd_aio_is_closed (h) == 0);
  s = nbd_connection_state (h);
  CHECK (s != NULL && s[0] != '\0');

  s = nbd_get_package_name (h);
  CHECK (s != NULL);
  if (strcmp (s, "libnbd") != 0)
    FAIL ("nbd_get_package_name: expected \"libnbd\", got \"%s\"", s);

  s = nbd_get_version (h);
  CHECK (s != NULL);
  if (sscanf (s, "%u.%u.%u", &major, &minor, &release) != 3 || major != 1)
    FAIL ("nbd_get_version: expected \"1.x.y\", got \"%s\"", s);

  CHECK (nbd_supports_uri (h) == 1);
  r = nbd_supports_tls (h);
  if (r != 1)
    FAIL ("nbd_supports_tls returned %d, expected 1 (built with GnuTLS)", r);

  nbd_close (h);

  /* Many handles at once, each independent, closed in a mixed order. */
  for (i = 0; i < NR_HANDLES; ++i) {
    hs[i] = nbd_create ();
    CHECK (hs[i] != NULL);
    for (size_t j = 0; j < i; ++j)
      CHECK (hs[i] != hs[j]);
  }
  for (i = 0; i < NR_HANDLES; i += 2)
    nbd_close (hs[i]);
  for (i = 1; i < NR_HANDLES; i += 2) {
    CHECK (nbd_aio_is_created (hs[i]) == 1);
    nbd_close (hs[i]);
  }

  exit (EXIT_SUCCESS);
}
