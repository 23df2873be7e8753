/* uri.c: --uri, the canonical URI of the connection. */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include <libnbd.h>

#include "nbdinfo.h"

void
do_uri (struct nbd_handle *nbd)
{
  char *uri = nbd_get_uri (nbd);

  if (uri == NULL)
    die_nbd ();
  if (json_output)
    print_json_string (uri);
  else
    fputs (uri, out);
  fputc ('\n', out);
  free (uri);
}
