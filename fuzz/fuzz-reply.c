/* fuzz-reply.c: libFuzzer entry: the input is everything the server says. */
#include <config.h>

#include <stdint.h>
#include <stddef.h>
#include <signal.h>

#include "workload.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int ignored;

  /* The client may write after the fake server has shut down its side. */
  if (!ignored) {
    signal (SIGPIPE, SIG_IGN);
    ignored = 1;
  }
  workload_both_ways (data, size);
  return 0;
}
