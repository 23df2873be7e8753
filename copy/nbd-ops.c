/* nbd-ops.c: connecting to an NBD endpoint and learning what it can do. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdcopy.h"

static void __attribute__ ((noreturn))
die_nbd (struct rw *rw)
{
  fprintf (stderr, "nbdcopy: %s: %s\n", rw->name, nbd_get_error ());
  exit (EXIT_FAILURE);
}

/* Connect H to URI, giving up after TIMEOUT seconds (returning -2): a
 * server that accepts but never answers (stopped, or behind a dead
 * link) must not hold a reconnecting copy for ever.
 */
static int
connect_uri_within (struct nbd_handle *h, const char *uri, double timeout)
{
  if (nbd_aio_connect_uri (h, uri) == -1)
    return -1;
  return reconnect_wait_connected (h, reconnect_now () + timeout);
}

/* Configure H as every connection to RW is, and connect it: 0, or -1
 * (see nbd_get_error), or -2 (timed out).
 */
static int
connect_handle (struct nbd_handle *h, struct rw *rw)
{
  int r;

  nbd_set_handle_name (h, rw->is_source ? "src" : "dst");
  if (opt.verbose)
    nbd_set_debug (h, true);
  /* Reads need no pre-zeroed buffers: the library fails a read whose
   * chunks do not cover it.
   */
  if (nbd_set_pread_initialize (h, false) == -1)
    return -1;
  if (rw->is_source && opt.extents &&
      nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1)
    return -1;
  if (rw->argv)
    return nbd_connect_systemd_socket_activation (h, rw->argv);
  if (nbd_set_uri_allow_local_file (h, true) == -1)
    return -1;
  if (opt.rc.window > 0 && opt.rc.request_timeout > 0) {
    r = connect_uri_within (h, rw->uri, opt.rc.request_timeout);
    if (r < 0)
      return r;
  }
  else if (nbd_connect_uri (h, rw->uri) == -1)
    return -1;
  /* A peer that vanished is then found even when nothing is in
   * flight.
   */
  if (opt.rc.window > 0)
    reconnect_keepalive (h);
  return 0;
}

/* One more connection to RW, configured the same way as the first. */
struct nbd_handle *
nbd_connect_one (struct rw *rw)
{
  struct nbd_handle *h;
  char err[256];
  int errnum;

  h = nbd_try_connect (rw, err, sizeof err, &errnum);
  if (h == NULL) {
    fprintf (stderr, "nbdcopy: %s: %s\n", rw->name, err);
    exit (EXIT_FAILURE);
  }
  return h;
}

struct nbd_handle *
nbd_try_connect (struct rw *rw, char *err, size_t len, int *errnum)
{
  struct nbd_handle *h = nbd_create ();
  int r = h ? connect_handle (h, rw) : -1;

  if (r == 0)
    return h;
  if (r == -2) {
    snprintf (err, len, "no answer within %g seconds",
              opt.rc.request_timeout);
    *errnum = ETIMEDOUT;
  }
  else {
    snprintf (err, len, "%s", nbd_get_error ());
    *errnum = nbd_get_errno ();
  }
  nbd_close (h);
  return NULL;
}

/* The first connection: what the server offers decides the rest. */
void
nbd_open (struct rw *rw)
{
  struct nbd_handle *h;
  int64_t pref, min;

  rw->kind = RW_NBD;
  rw->handles = calloc (opt.connections, sizeof *rw->handles);
  if (rw->handles == NULL) {
    perror ("calloc");
    exit (EXIT_FAILURE);
  }
  h = rw->handles[0] = nbd_connect_one (rw);
  rw->nr_handles = 1;
  rw->size = nbd_get_size (h);
  if (rw->size == -1)
    die_nbd (rw);
  rw->read_only = nbd_is_read_only (h) == 1;
  rw->can_multi_conn = nbd_can_multi_conn (h) == 1;
  rw->can_zero = nbd_can_zero (h) == 1;
  rw->can_flush = nbd_can_flush (h) == 1;
  rw->can_extents =
    nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1;
  pref = nbd_get_block_size (h, LIBNBD_SIZE_PREFERRED);
  rw->preferred = pref > 0 && pref <= MAX_REQUEST_SIZE ? pref : 0;
  /* The library checks what the server sent: a power of 2 up to 64K. */
  min = nbd_get_block_size (h, LIBNBD_SIZE_MINIMUM);
  rw->minimum = min > 0 ? min : 1;
  if (resilient () && export_facts_read (h, &rw->facts) == -1)
    die_nbd (rw);
}
