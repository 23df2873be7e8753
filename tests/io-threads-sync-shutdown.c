/* io-threads-sync-shutdown.c: nbd_shutdown from a fourth thread while
 * three others wait in synchronous nbd_pread calls on the same handle.
 *
 * The server holds each read for 300 ms, so the readers are waiting
 * when the shutdown comes.  Every wait must end: a read in flight at
 * the shutdown may succeed (with the right data) or fail, every read
 * after it fails with an error naming nbd_pread, nbd_shutdown itself
 * succeeds, and the handle ends closed.  (On 1.22 the same holds, one
 * wait at a time.)
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <inttypes.h>

#include <libnbd.h>

#include "test-common.h"
#include "bg-server.h"

#define READERS 3
#define LEN 4096
#define HANG_SECONDS 30         /* the alarm turns a hang into a failure */

struct reader {
  pthread_t thread;
  unsigned id;
  unsigned ok;                  /* reads that succeeded (atomic) */
  char error[256];              /* the first failure, or "" */
};

static struct nbd_handle *h;
static bool shut_down;          /* atomic: nbd_shutdown has returned */

/* nbdkit pattern: the first 8 bytes at OFFSET hold OFFSET, big-endian. */
static uint64_t
first_word (const unsigned char *buf)
{
  uint64_t v = 0;
  int i;

  for (i = 0; i < 8; ++i)
    v = v << 8 | buf[i];
  return v;
}

/* Read until a call fails; after the shutdown, one more must fail. */
static void *
read_until_failure (void *arg)
{
  struct reader *r = arg;
  unsigned char buf[LEN];
  uint64_t offset;

  for (;;) {
    bool after = __atomic_load_n (&shut_down, __ATOMIC_ACQUIRE);
    offset = (r->id * 64 + r->ok % 64) * LEN;
    if (nbd_pread (h, buf, LEN, offset, 0) == -1) {
      snprintf (r->error, sizeof r->error, "%s", nbd_get_error ());
      return NULL;
    }
    if (after)
      FAIL ("reader %u: nbd_pread succeeded after nbd_shutdown returned",
            r->id);
    if (first_word (buf) != offset)
      FAIL ("reader %u: wrong data at %" PRIu64, r->id, offset);
    /* Only this thread writes it; the shutter reads it meanwhile. */
    __atomic_store_n (&r->ok, r->ok + 1, __ATOMIC_RELAXED);
  }
}

static void *
shut_down_when_reading (void *arg)
{
  struct reader *readers = arg;
  struct timespec ts = { 0, 10000000 };
  int i;

  /* Wait until every reader has read once and waits again. */
  for (i = 0; i < 1000; ++i) {
    unsigned n = 0, k;
    for (k = 0; k < READERS; ++k)
      n += __atomic_load_n (&readers[k].ok, __ATOMIC_RELAXED) > 0;
    if (n == READERS)
      break;
    nanosleep (&ts, NULL);
  }
  if (nbd_shutdown (h, 0) == -1)
    FAIL ("nbd_shutdown: %s", nbd_get_error ());
  __atomic_store_n (&shut_down, true, __ATOMIC_RELEASE);
  return NULL;
}

int
main (void)
{
  const struct bg_server *srv;
  struct reader readers[READERS];
  pthread_t shutter;
  unsigned k;

  requires_program ("nbdkit");
  srv = bg_server_start ("--filter=delay pattern size=1M rdelay=300ms");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_connect_unix (h, srv->sock) == 0);

  bg_server_alarm (HANG_SECONDS);
  for (k = 0; k < READERS; ++k) {
    readers[k] = (struct reader) { .id = k };
    CHECK (pthread_create (&readers[k].thread, NULL, read_until_failure,
                           &readers[k]) == 0);
  }
  CHECK (pthread_create (&shutter, NULL, shut_down_when_reading,
                         readers) == 0);
  CHECK (pthread_join (shutter, NULL) == 0);
  for (k = 0; k < READERS; ++k)
    CHECK (pthread_join (readers[k].thread, NULL) == 0);
  alarm (0);

  for (k = 0; k < READERS; ++k) {
    printf ("reader %u: %u reads, then: %s\n", k, readers[k].ok,
            readers[k].error);
    if (readers[k].ok == 0)
      FAIL ("reader %u never read", k);
    if (strncmp (readers[k].error, "nbd_pread: ", 11) != 0)
      FAIL ("reader %u: the error does not name the call: %s", k,
            readers[k].error);
  }
  CHECK (nbd_aio_is_closed (h));
  CHECK (nbd_aio_in_flight (h) == 0);
  nbd_close (h);
  return EXIT_SUCCESS;
}
