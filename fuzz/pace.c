/* pace.c: hand the server's bytes to the client one burst at a time. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "workload.h"

/* An input is the server's bursts, each separated from the next by
 * WORKLOAD_SEPARATOR: what the server said after each thing the
 * client said (record.c writes them so).  Everything at once would
 * not do: the library reads ahead, and would find replies to commands
 * it has not sent yet, and skip them as replies for no command.  So
 * the next burst is written only when the client is about to block
 * with nothing to read, from inside poll (this definition takes the
 * place of the C library's, for the library too).  That is
 * deterministic, and never deadlocks: each wait releases more, and
 * after the last burst the server's side is shut down (or, for the
 * second run of workload_both_ways, left open).
 */
const uint8_t workload_separator[WORKLOAD_SEPARATOR_LEN] = {
  0xfe, 0xed, 'N', 'E', 'X', 'T', 0xfe, 0xed
};

static struct {
  int fd;                       /* the server's end, or -1 */
  const uint8_t *next, *end;    /* what is left to send */
  bool close_at_end;
} pace = { .fd = -1 };

/* Write the next burst; at the end, shut down or do nothing. */
static void
release_burst (void)
{
  const uint8_t *sep;
  size_t len;
  ssize_t w;

  if (pace.next == NULL) {
    if (pace.close_at_end)
      shutdown (pace.fd, SHUT_WR);
    pace.fd = -1;
    return;
  }
  sep = memmem (pace.next, pace.end - pace.next, workload_separator,
                WORKLOAD_SEPARATOR_LEN);
  len = (sep ? sep : pace.end) - pace.next;
  for (; len > 0; len -= w, pace.next += w) {
    w = write (pace.fd, pace.next, len);
    if (w <= 0)
      abort ();                 /* the socket buffer holds any input */
  }
  pace.next = sep ? sep + WORKLOAD_SEPARATOR_LEN : NULL;
}

void
pace_start (int fd, const uint8_t *input, size_t len, bool close_at_end)
{
  pace.fd = fd;
  pace.next = input;
  pace.end = input + len;
  pace.close_at_end = close_at_end;
  release_burst ();             /* the greeting */
}

void
pace_stop (void)
{
  pace.fd = -1;
}

static int
real_poll (struct pollfd *fds, nfds_t nfds, int timeout)
{
  struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };

  return ppoll (fds, nfds, timeout < 0 ? NULL : &ts, NULL);
}

int
poll (struct pollfd *fds, nfds_t nfds, int timeout)
{
  int r;

  /* Only a wait that would block releases more. */
  while (pace.fd >= 0 && timeout != 0) {
    r = real_poll (fds, nfds, 0);
    if (r != 0)
      return r;
    release_burst ();
  }
  return real_poll (fds, nfds, timeout);
}
