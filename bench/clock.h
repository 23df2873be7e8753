/* clock.h: the bench clients' clock (header-only: each client is one
 * source file that bench/functions.sh build_client, or a script,
 * compiles alone).
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock. */
static inline double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* BENCH_CLOCK_H */
