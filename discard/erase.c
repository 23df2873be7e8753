/* erase.c: trim or zero the range, then flush. */
#include <config.h>

#include "nbddiscard.h"

/* With extended headers one request covers the whole range, as in
 * 1.24; the server's maximum block size bounds reads and writes, not
 * trims and zeroes (see nbd_get_block_size(3)), so it is not applied.
 */
void
erase (struct nbd_handle *nbd, bool zero, uint32_t flags,
       uint64_t offset, uint64_t length)
{
  uint64_t max = nbd_get_extended_headers_negotiated (nbd) == 1
                 ? UINT64_MAX : COMPACT_MAX_REQUEST;
  uint64_t n;
  int r;

  while (length > 0) {
    n = length < max ? length : max;
    if (zero)
      r = nbd_zero (nbd, n, offset, flags);
    else
      r = nbd_trim (nbd, n, offset, 0);
    if (r == -1)
      die_nbd ();
    offset += n;
    length -= n;
  }
  if (nbd_can_flush (nbd) == 1 && nbd_flush (nbd, 0) == -1)
    die_nbd ();
}
