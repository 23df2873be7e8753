/* basic-errors-thread-local.c: test the last error is kept per thread. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"

static struct nbd_handle *h;
static pthread_barrier_t barrier;

/* Fail one call (ENOTCONN), let main fail another, then check ours. */
static void *
worker (void *arg)
{
  (void) arg;

  /* A new thread starts with no error. */
  CHECK (nbd_get_error () == NULL);
  CHECK (nbd_get_errno () == 0);

  CHECK (nbd_get_size (h) == -1);
  CHECK_ERROR (ENOTCONN, "nbd_get_size: ");

  pthread_barrier_wait (&barrier);  /* main sets its error now */
  pthread_barrier_wait (&barrier);

  CHECK_ERROR (ENOTCONN, "nbd_get_size: ");
  return NULL;
}

int
main (void)
{
  pthread_t thread;
  int err;

  h = nbd_create ();
  CHECK (h != NULL);
  pthread_barrier_init (&barrier, NULL, 2);

  /* An error in main before the thread starts is not seen there. */
  CHECK (nbd_set_tls (h, 99) == -1);
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");

  err = pthread_create (&thread, NULL, worker, NULL);
  if (err != 0)
    FAIL ("pthread_create: %s", strerror (err));

  pthread_barrier_wait (&barrier);
  /* The worker's failure did not replace ours. */
  CHECK_ERROR (EINVAL, "nbd_set_tls: ");
  CHECK (nbd_set_export_name (h, "x") == 0);
  CHECK (nbd_connect_unix (h, "/nonexistent/basic-errors-thread-local") == -1);
  CHECK_ERROR (ENOENT, "nbd_connect_unix: ");
  pthread_barrier_wait (&barrier);

  err = pthread_join (thread, NULL);
  if (err != 0)
    FAIL ("pthread_join: %s", strerror (err));
  CHECK_ERROR (ENOENT, "nbd_connect_unix: ");

  pthread_barrier_destroy (&barrier);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
