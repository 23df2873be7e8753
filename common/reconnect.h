/* reconnect.h: what nbdcopy and nbdfuse share to survive a dead
 * connection: the settings, the back-off between attempts, telling a
 * dead connection from an I/O error, TCP keep-alive, and the facts of
 * an export that must not change across a reconnect.  Only the public
 * libnbd API is used: the library itself never reconnects.
 */
#ifndef RECONNECT_H
#define RECONNECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libnbd.h>

/* The exit status of a tool whose export changed across a reconnect. */
#define EXIT_EXPORT_CHANGED 3

struct reconnect_policy {
  double window;                /* seconds an outage may last; 0 = off */
  double delay_min, delay_max;  /* the back-off between attempts */
  double request_timeout;       /* no reply for this long = dead; 0 = never */
};

#define RECONNECT_DELAY_MIN 0.25
#define RECONNECT_DELAY_MAX 8.0
#define RECONNECT_REQUEST_TIMEOUT 60.0

/* The defaults, before the command line; the request timeout is
 * settled by reconnect_policy_finish.
 */
#define RECONNECT_POLICY_INIT                                           \
  { .delay_min = RECONNECT_DELAY_MIN, .delay_max = RECONNECT_DELAY_MAX, \
    .request_timeout = -1 }

/* The values of PROGRAM's --reconnect=SECONDS, --request-timeout=
 * SECONDS (and the like: OPTION names it) and --reconnect-delay=
 * MIN:MAX.  A bad value is a usage error naming the option.
 */
extern double reconnect_option_seconds (const char *program,
                                        const char *option,
                                        const char *arg);
extern void reconnect_option_delay (const char *program, const char *arg,
                                    struct reconnect_policy *p);

/* After the command line: the request timeout not given is 60 s with
 * --reconnect, else none.
 */
extern void reconnect_policy_finish (struct reconnect_policy *p);

/* One outage: when it started and the next delay. */
struct backoff {
  const struct reconnect_policy *policy;
  double start, delay;
  unsigned attempts;
  unsigned seed;
};

/* Monotonic seconds. */
extern double reconnect_now (void);
extern void backoff_start (struct backoff *b,
                           const struct reconnect_policy *p);
/* Sleep a jittered delay before the next attempt; false (without
 * sleeping) once the window would be over.
 */
extern bool backoff_wait (struct backoff *b);

/* Whether a failed command with errno ERR on H means the connection
 * is gone (reconnect) rather than the server refusing the command (an
 * I/O error): the handle is dead or closed, or the server is shutting
 * down (NBD_ESHUTDOWN), or the socket broke.
 */
extern bool reconnect_is_connection_error (struct nbd_handle *h, int err);

/* Turn on TCP keep-alive on H's socket when it is a TCP socket, so a
 * peer that vanished without a word is found even with nothing in
 * flight.  Quietly does nothing for other sockets.
 */
extern void reconnect_keepalive (struct nbd_handle *h);

/* After one of the nbd_aio_connect calls on H, wait for the handshake
 * until DEADLINE (reconnect_now's clock): a server that accepts and
 * never answers (stopped, or behind a firewall dropping packets) must
 * not hold an attempt up for ever.  0 when H is ready, -1 when the
 * connection failed (nbd_get_error says why, if the library said
 * anything), -2 when the deadline passed.
 */
extern int reconnect_wait_connected (struct nbd_handle *h, double deadline);

/* Break H's socket so that nothing more goes out or comes in on it:
 * used on a connection declared dead by a timeout before closing it.
 */
extern void reconnect_break (struct nbd_handle *h);

/* What a program relies on about an export, read after connecting. */
struct export_facts {
  char *export_name;
  int64_t size;
  int read_only, can_flush, can_fua, can_zero, can_fast_zero, can_trim;
  int can_multi_conn, can_cache, can_df;
  int64_t block_min, block_pref, block_max;
  int structured, extended;
  int base_allocation;          /* the meta context nbdcopy uses */
  int tls;
};

extern int export_facts_read (struct nbd_handle *h,
                              struct export_facts *f);
extern void export_facts_free (struct export_facts *f);
/* Whether AFTER differs from BEFORE; if so WHY (LEN bytes) names the
 * first fact that changed, with both values.
 */
extern bool export_facts_differ (const struct export_facts *before,
                                 const struct export_facts *after,
                                 char *why, size_t len);

/* What reconnecting cost, for the tools' summary lines. */
struct reconnect_stats {
  _Atomic unsigned reconnects;
  _Atomic uint64_t waited_ms;
  _Atomic uint64_t bytes_replayed;
};

/* "PROG: N reconnects, waited S s, replayed B bytes" on stderr */
extern void reconnect_stats_print (const char *prog,
                                   struct reconnect_stats *s);

#endif /* RECONNECT_H */
