/* fuzz-tls.c: libFuzzer entry: the input is a TLS server's handshake. */
#include <config.h>

#include <stdint.h>
#include <stddef.h>
#include <signal.h>

#include "workload.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The first byte chooses the credentials and the way to TLS (see
 * workload.h), the rest is what GnuTLS reads after the STARTTLS ACK.
 */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int ignored;

  if (!ignored) {
    signal (SIGPIPE, SIG_IGN);
    ignored = 1;
  }
  workload_tls (data, size);
  return 0;
}
