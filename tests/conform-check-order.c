/* conform-check-order.c: the default strict mode and the order of a
 * command's checks, so a request failing several gets libnbd 1.22's
 * errno.
 */
#include <config.h>

#include <libnbd.h>

#include "test-common.h"

static char buf[33 * 1024 * 1024];

static void
count_free (void *user_data)
{
  ++*(int *) user_data;
}

int
main (void)
{
  /* Read-only, no trim, no zero, no cache, a 32M maximum block size. */
  char *ro[] = { "nbdkit", "-s", "--exit-with-parent", "-r",
                 "--filter=nozero", "--filter=blocksize-policy",
                 "memory", "64M", "blocksize-maximum=32M", NULL };
  char *rw[] = { "nbdkit", "-s", "--exit-with-parent", "memory", "1M",
                 NULL };
  struct nbd_handle *h;
  nbd_chunk_callback only_free;
  int freed = 0;

  requires_program ("nbdkit");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_get_strict_mode (h) == LIBNBD_STRICT_MASK);
  CHECK (LIBNBD_STRICT_MASK == 0x7f);
  nbd_close (h);

  h = connect_command_or_fail (ro);
  /* Not advertised comes before read-only. */
  CHECK (nbd_trim (h, 512, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_trim: ");
  CHECK (nbd_zero (h, 512, 0, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_zero: ");
  /* Read-only comes before bounds (which would be ENOSPC). */
  CHECK (nbd_pwrite (h, buf, 512, 1ULL << 40, 0) == -1);
  CHECK_ERROR (EPERM, "nbd_pwrite: ");
  /* A write payload above the server's maximum: ERANGE (strict
   * payload), once the write itself is allowed.
   */
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK &
                              ~LIBNBD_STRICT_COMMANDS) == 0);
  CHECK (nbd_aio_pwrite (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION,
                         0) == -1);
  CHECK_ERROR (ERANGE, "nbd_aio_pwrite: ");
  nbd_close (h);

  /* A closure with only .free set is not NULL: the bounds check runs
   * next, and the closure is freed once.
   */
  h = connect_command_or_fail (rw);
  only_free = (nbd_chunk_callback) { .free = count_free,
                                     .user_data = &freed };
  CHECK (nbd_aio_pread_structured (h, buf, 512, 1ULL << 40, only_free,
                                   NBD_NULL_COMPLETION, 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_pread_structured: ");
  CHECK (freed == 1);

  /* Without extended headers, AUTO_FLAG clears PAYLOAD_LEN; without
   * AUTO_FLAG, COMMANDS refuses it.
   */
  CHECK (nbd_pwrite (h, buf, 512, 0, LIBNBD_CMD_FLAG_PAYLOAD_LEN) == 0);
  CHECK (nbd_set_strict_mode (h, LIBNBD_STRICT_MASK &
                              ~LIBNBD_STRICT_AUTO_FLAG) == 0);
  CHECK (nbd_pwrite (h, buf, 512, 0, LIBNBD_CMD_FLAG_PAYLOAD_LEN) == -1);
  CHECK_ERROR (EINVAL, "nbd_pwrite: ");
  CHECK (nbd_pwrite (h, buf, 512, 0, 0) == 0);
  nbd_close (h);
  return 0;
}
