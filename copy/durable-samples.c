/* durable-samples.c: samples of the data made durable on the
 * destination (see durable-samples.h).
 */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "durable-samples.h"
#include "nbdcopy.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sample kept[MAX_DURABLE_SAMPLES];   /* under lock */
static size_t nr_kept;
static uint64_t nr_offered;     /* reservoir sampling's count */
static unsigned seed;

uint64_t
sample_hash_more (uint64_t h, const void *buf, size_t len)
{
  const unsigned char *p = buf;

  while (len--) {
    h ^= *p++;
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t
sample_hash (const void *buf, size_t len)
{
  return sample_hash_more (SAMPLE_HASH_INIT, buf, len);
}

bool
sample_of_data (uint64_t offset, const char *buf, size_t count,
                struct sample *s)
{
  uint64_t len = SAMPLE_SIZE / opt.unit * opt.unit;

  if (len == 0 || count == 0)
    return false;
  if (len > count)
    len = count;
  if (is_zero (buf, len))
    return false;
  *s = (struct sample) { offset, len, sample_hash (buf, len) };
  return true;
}

void
sample_list_add (struct sample_list *l, const struct sample *s)
{
  size_t cap;
  struct sample *v;

  if (l->len == l->cap) {
    cap = l->cap ? l->cap * 2 : 16;
    v = realloc (l->v, cap * sizeof *v);
    if (v == NULL) {
      perror ("realloc");
      exit (EXIT_FAILURE);
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->len++] = *s;
}

void
sample_list_free (struct sample_list *l)
{
  free (l->v);
  l->v = NULL;
  l->len = l->cap = 0;
}

void
durable_samples_add (const struct sample *v, size_t n)
{
  uint64_t j;
  size_t i;

  pthread_mutex_lock (&lock);
  if (nr_offered == 0)
    seed = (unsigned) time (NULL) ^ (unsigned) getpid ();
  for (i = 0; i < n; i++) {
    nr_offered++;
    if (nr_kept < MAX_DURABLE_SAMPLES) {
      kept[nr_kept++] = v[i];
      continue;
    }
    j = ((uint64_t) rand_r (&seed) << 31 ^ (uint64_t) rand_r (&seed)) %
      nr_offered;
    if (j < MAX_DURABLE_SAMPLES)
      kept[j] = v[i];
  }
  pthread_mutex_unlock (&lock);
}

size_t
durable_samples_get (struct sample *out)
{
  size_t i, n;

  pthread_mutex_lock (&lock);
  n = nr_kept;
  for (i = 0; i < n; i++)
    out[i] = kept[i];
  pthread_mutex_unlock (&lock);
  return n;
}

int
durable_samples_check (sample_read_fn fn, void *opaque, uint64_t *bad)
{
  struct sample v[MAX_DURABLE_SAMPLES];
  char *buf;
  size_t i, n = durable_samples_get (v);
  int r = 0;

  if (n == 0)
    return 0;
  buf = malloc (SAMPLE_SIZE);
  if (buf == NULL) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  for (i = 0; i < n && r == 0; i++) {
    if (fn (opaque, buf, v[i].len, v[i].offset) == -1)
      r = -1;
    else if (sample_hash (buf, v[i].len) != v[i].hash) {
      *bad = v[i].offset;
      r = 1;
    }
  }
  free (buf);
  return r;
}
