/* conform-lockfree-reads.c: nbd_stats_*, nbd_aio_get_direction and
 * nbd_aio_in_flight read from another thread while I/O runs, as event
 * loops and progress meters do.  Built with -fsanitize=thread this
 * reports any data race; in every build the counters must never go
 * backwards.
 */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include <libnbd.h>

#include "test-common.h"

#define REQUESTS 2000

static struct nbd_handle *h;
static bool done;               /* accessed atomically */

static void *
reader (void *arg)
{
  uint64_t last_sent = 0, last_received = 0;
  long bad = 0;

  while (!__atomic_load_n (&done, __ATOMIC_ACQUIRE)) {
    uint64_t sent = nbd_stats_bytes_sent (h);
    uint64_t received = nbd_stats_bytes_received (h);

    if (sent < last_sent || received < last_received)
      bad++;
    last_sent = sent;
    last_received = received;
    (void) nbd_stats_chunks_sent (h);
    (void) nbd_stats_chunks_received (h);
    (void) nbd_aio_get_direction (h);
    (void) nbd_aio_in_flight (h);
  }
  return (void *) bad;
}

int
main (void)
{
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "memory", "1M",
                   NULL };
  static char buf[512];
  pthread_t thread;
  void *bad;
  int i;

  requires_program ("nbdkit");
  h = connect_command_or_fail (args);
  CHECK (pthread_create (&thread, NULL, reader, NULL) == 0);
  for (i = 0; i < REQUESTS; ++i)
    CHECK (nbd_pwrite (h, buf, sizeof buf, (i % 64) * 512, 0) == 0);
  __atomic_store_n (&done, true, __ATOMIC_RELEASE);
  CHECK (pthread_join (thread, &bad) == 0);
  CHECK (bad == NULL);
  CHECK (nbd_stats_chunks_sent (h) >= REQUESTS);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  return 0;
}
