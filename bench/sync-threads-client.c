/* sync-threads-client.c: THREADS threads share one handle, each making
 * READS blocking 4 KiB nbd_pread calls.  Prints reads per second (from
 * the first call to the last return) and the client's CPU seconds per
 * thousand reads.
 * usage: sync-threads-client SOCKET THREADS READS
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/resource.h>

#include <libnbd.h>

#include "clock.h"

static struct nbd_handle *h;
static unsigned reads;

static void *
run (void *arg)
{
  uintptr_t t = (uintptr_t) arg;
  char buf[4096];
  unsigned i;

  for (i = 0; i < reads; ++i)
    if (nbd_pread (h, buf, sizeof buf, ((t * reads + i) % 256) * 4096, 0)
        == -1) {
      fprintf (stderr, "%s\n", nbd_get_error ());
      exit (1);
    }
  return NULL;
}

int
main (int argc, char *argv[])
{
  unsigned threads, t;
  pthread_t *tids;
  struct rusage ru;
  double t0, wall, cpu;

  if (argc != 4)
    return 2;
  threads = atoi (argv[2]);
  reads = atoi (argv[3]);
  tids = calloc (threads, sizeof *tids);
  h = nbd_create ();
  if (!tids || !h || nbd_connect_unix (h, argv[1]) == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    return 1;
  }
  t0 = now ();
  for (t = 0; t < threads; ++t)
    pthread_create (&tids[t], NULL, run, (void *) (uintptr_t) t);
  for (t = 0; t < threads; ++t)
    pthread_join (tids[t], NULL);
  wall = now () - t0;
  getrusage (RUSAGE_SELF, &ru);
  cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  printf ("%.0f %.4f\n", threads * reads / wall,
          cpu * 1000 / (threads * reads));
  nbd_close (h);
  return 0;
}
