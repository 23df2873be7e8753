/* check.h: the workloads' invariants; a broken one aborts, so the
 * fuzzer reports it as a crash.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf (stderr, "%s:%d: invariant broken: %s\n",                 \
               __FILE__, __LINE__, #cond);                              \
      abort ();                                                         \
    }                                                                   \
  } while (0)

#endif /* FUZZ_CHECK_H */
