/* io-threads.c: eight threads share one handle, each on its own region. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_THREADS 8
#define NR_PAIRS 200
#define REGION (1024 * 1024)
#define MAX_IO 16384

struct worker {
  struct nbd_handle *h;
  int id;
  int failed;                   /* set on any error or mismatch */
  char msg[256];
};

static void *
work (void *arg)
{
  struct worker *w = arg;
  uint64_t base = (uint64_t) w->id * REGION;
  unsigned seed = w->id + 1;
  unsigned char *wbuf = malloc (MAX_IO), *rbuf = malloc (MAX_IO);
  size_t count, i;
  uint64_t offset;
  int n;

  if (wbuf == NULL || rbuf == NULL) {
    snprintf (w->msg, sizeof w->msg, "malloc failed");
    goto fail;
  }
  for (n = 0; n < NR_PAIRS; ++n) {
    count = 1 + rand_r (&seed) % MAX_IO;
    offset = base + rand_r (&seed) % (REGION - count + 1);
    for (i = 0; i < count; ++i)
      wbuf[i] = (w->id << 5) ^ (n + i);
    if (nbd_pwrite (w->h, wbuf, count, offset, 0) == -1) {
      snprintf (w->msg, sizeof w->msg, "pwrite: %s", nbd_get_error ());
      goto fail;
    }
    memset (rbuf, 0, count);
    if (nbd_pread (w->h, rbuf, count, offset, 0) == -1) {
      snprintf (w->msg, sizeof w->msg, "pread: %s", nbd_get_error ());
      goto fail;
    }
    if (memcmp (wbuf, rbuf, count) != 0) {
      snprintf (w->msg, sizeof w->msg, "data mismatch at pair %d", n);
      goto fail;
    }
  }
  free (wbuf);
  free (rbuf);
  return NULL;

 fail:
  w->failed = 1;
  free (wbuf);
  free (rbuf);
  return NULL;
}

int
main (void)
{
  struct nbd_handle *h;
  pthread_t threads[NR_THREADS];
  struct worker workers[NR_THREADS];
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=8M", NULL };
  int i, err;

  requires_program ("nbdkit");
  h = connect_command_or_fail (args);
  CHECK (nbd_get_size (h) == (int64_t) NR_THREADS * REGION);

  for (i = 0; i < NR_THREADS; ++i) {
    memset (&workers[i], 0, sizeof workers[i]);
    workers[i].h = h;
    workers[i].id = i;
    err = pthread_create (&threads[i], NULL, work, &workers[i]);
    if (err != 0)
      FAIL ("pthread_create: %s", strerror (err));
  }
  for (i = 0; i < NR_THREADS; ++i) {
    err = pthread_join (threads[i], NULL);
    if (err != 0)
      FAIL ("pthread_join: %s", strerror (err));
  }
  for (i = 0; i < NR_THREADS; ++i)
    if (workers[i].failed)
      FAIL ("thread %d: %s", i, workers[i].msg);

  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
