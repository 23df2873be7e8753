/* size.c: --size, the export's size in bytes. */

#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include <libnbd.h>

#include "nbdinfo.h"

void
do_size (struct nbd_handle *nbd)
{
  int64_t size = nbd_get_size (nbd);

  if (size == -1)
    die_nbd ();
  fprintf (out, "%" PRIi64 "\n", size);
}
