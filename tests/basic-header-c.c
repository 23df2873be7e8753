/* basic-header-c.c: test <libnbd.h> compiles alone as ISO C99 (basic.mk). */

/* Included first and twice, before anything else: it must be complete
 * on its own and guarded.  basic.mk compiles this file with
 * -std=c99 -pedantic-errors, so no GNU extension may slip in.
 */
#include <libnbd.h>
#include <libnbd.h>

#include <stdio.h>
#include <stdlib.h>

#if !defined (LIBNBD_HAVE_NBD_CREATE) || !defined (LIBNBD_HAVE_NBD_PREAD)
#error "LIBNBD_HAVE_* macros are missing"
#endif

static int
debug_fn (void *user_data, const char *context, const char *msg)
{
  (void) user_data;
  (void) context;
  (void) msg;
  return 0;
}

int
main (void)
{
  struct nbd_handle *h;
  nbd_debug_callback cb = { debug_fn, NULL, NULL };
  nbd_completion_callback done = NBD_NULL_COMPLETION;
  uint64_t flags = LIBNBD_CMD_FLAG_FUA | LIBNBD_HANDSHAKE_FLAG_MASK;
  int64_t size = -1;
  size_t len = 0;
  bool b = true;

  (void) done;
  (void) flags;
  (void) size;
  (void) len;
  (void) b;

  h = nbd_create ();
  if (h == NULL) {
    fprintf (stderr, "nbd_create: %s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  if (nbd_set_debug_callback (h, cb) == -1) {
    fprintf (stderr, "nbd_set_debug_callback: %s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
