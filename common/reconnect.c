/* reconnect.c: settings, back-off, failure classification and socket
 * care for the tools that reconnect (see reconnect.h).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "reconnect.h"
#include "usage-error.h"

/* A number of seconds: digits with an optional fraction, at most a
 * day, since a larger value is more likely a typo than a wish.
 */
static bool
parse_seconds (const char *arg, double *out, const char **err)
{
  char *end;
  double d;

  if (arg[0] < '0' || arg[0] > '9') {
    *err = "expected a number of seconds";
    return false;
  }
  errno = 0;
  d = strtod (arg, &end);
  if (errno != 0 || *end != '\0' || !isfinite (d)) {
    *err = "expected a number of seconds";
    return false;
  }
  if (d > 86400) {
    *err = "must be at most 86400 seconds";
    return false;
  }
  *out = d;
  return true;
}

/* MIN:MAX, both seconds, 0 < MIN <= MAX. */
static bool
parse_delay (const char *arg, struct reconnect_policy *p, const char **err)
{
  char buf[64];
  char *colon;
  double lo, hi;

  if (strlen (arg) >= sizeof buf || (colon = strchr (arg, ':')) == NULL) {
    *err = "expected MIN:MAX in seconds";
    return false;
  }
  memcpy (buf, arg, colon - arg);
  buf[colon - arg] = '\0';
  if (!parse_seconds (buf, &lo, err) || !parse_seconds (colon + 1, &hi, err))
    return false;
  if (lo <= 0 || hi < lo) {
    *err = "needs 0 < MIN <= MAX";
    return false;
  }
  p->delay_min = lo;
  p->delay_max = hi;
  return true;
}

double
reconnect_option_seconds (const char *program, const char *option,
                          const char *arg)
{
  const char *err;
  double d;

  if (!parse_seconds (arg, &d, &err))
    usage_error (program, "%s: %s: '%s'", option, err, arg);
  return d;
}

void
reconnect_option_delay (const char *program, const char *arg,
                        struct reconnect_policy *p)
{
  const char *err;

  if (!parse_delay (arg, p, &err))
    usage_error (program, "--reconnect-delay: %s: '%s'", err, arg);
}

void
reconnect_policy_finish (struct reconnect_policy *p)
{
  if (p->request_timeout < 0)
    p->request_timeout = p->window > 0 ? RECONNECT_REQUEST_TIMEOUT : 0;
}

double
reconnect_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void
backoff_start (struct backoff *b, const struct reconnect_policy *p)
{
  b->policy = p;
  b->start = reconnect_now ();
  b->delay = p->delay_min;
  b->attempts = 0;
  b->seed = (unsigned) (b->start * 1e6) ^ (unsigned) getpid ();
}

/* Each delay doubles up to the cap and is then drawn from its upper
 * half, so that many connections broken together do not all come back
 * at the same instant.
 */
bool
backoff_wait (struct backoff *b)
{
  double left = b->start + b->policy->window - reconnect_now ();
  double d = b->delay * (0.5 + 0.5 * rand_r (&b->seed) / (double) RAND_MAX);
  struct timespec ts;

  if (left <= 0)
    return false;
  if (d > left)
    d = left;
  ts.tv_sec = (time_t) d;
  ts.tv_nsec = (long) ((d - ts.tv_sec) * 1e9);
  while (nanosleep (&ts, &ts) == -1 && errno == EINTR)
    ;
  b->attempts++;
  b->delay *= 2;
  if (b->delay > b->policy->delay_max)
    b->delay = b->policy->delay_max;
  return true;
}

bool
reconnect_is_connection_error (struct nbd_handle *h, int err)
{
  if (h && (nbd_aio_is_dead (h) == 1 || nbd_aio_is_closed (h) == 1))
    return true;
  switch (err) {
  case ESHUTDOWN: case ENOTCONN: case ECONNRESET: case ECONNABORTED:
  case EPIPE: case ETIMEDOUT: case EHOSTUNREACH: case ENETUNREACH:
  case ENETDOWN: case ECONNREFUSED:
    return true;
  default:
    return false;
  }
}

void
reconnect_keepalive (struct nbd_handle *h)
{
  int fd = nbd_aio_get_fd (h);
  int domain = 0, on = 1, idle = 10, intvl = 5, cnt = 3;
  socklen_t len = sizeof domain;

  if (fd == -1 ||
      getsockopt (fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == -1 ||
      (domain != AF_INET && domain != AF_INET6))
    return;
  /* Idle 10 s, then 3 probes 5 s apart: a vanished peer is found in
   * about 25 s.  Failures only lose the early warning.
   */
  (void) setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
  (void) setsockopt (fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  (void) setsockopt (fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  (void) setsockopt (fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

int
reconnect_wait_connected (struct nbd_handle *h, double deadline)
{
  double left;

  while (nbd_aio_is_connecting (h) == 1) {
    left = deadline - reconnect_now ();
    if (left <= 0)
      return -2;
    if (nbd_poll (h, (int) (left * 1000) + 1) == -1)
      return -1;
  }
  return nbd_aio_is_ready (h) == 1 ? 0 : -1;
}

void
reconnect_break (struct nbd_handle *h)
{
  int fd = nbd_aio_get_fd (h);

  if (fd >= 0)
    (void) shutdown (fd, SHUT_RDWR);
}

void
reconnect_stats_print (const char *prog, struct reconnect_stats *s)
{
  uint64_t ms = atomic_load (&s->waited_ms);

  unsigned n = atomic_load (&s->reconnects);

  fprintf (stderr, "%s: %u reconnect%s, waited %" PRIu64 ".%03" PRIu64
           " s, replayed %" PRIu64 " bytes\n", prog, n, n == 1 ? "" : "s",
           ms / 1000, ms % 1000, atomic_load (&s->bytes_replayed));
}
