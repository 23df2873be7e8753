/* workload.h: the fixed client workload the fuzzer and its replayer run. */
#ifndef FUZZ_WORKLOAD_H
#define FUZZ_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Steps of the workload, run in order on one handle. */
#define WORKLOAD_STEPS 14

/* Run steps [0, limit) as the client on SOCK (one end of a socketpair
 * whose other end holds the server's bytes).  Returns the first step
 * that saw the server close the connection (ECONNRESET, or the CLOSED
 * state after a disconnect), or WORKLOAD_STEPS if none did.
 * A broken invariant aborts, so the fuzzer reports it.
 */
extern int workload_run (int sock, int limit);

/* Whether workload_run asks for extended headers (default false). */
extern void workload_extended (bool on);

/* Run INPUT as the server's bytes twice (asking for extended headers
 * when INPUT holds their reply magic): with the server's side
 * closed at the end of them, then kept open while the steps that did
 * not need that end run again.  A client that waits for bytes that
 * will not come blocks in the second run: a hang, caught by the
 * caller's timeout.
 */
extern void workload_both_ways (const uint8_t *input, size_t len);

/* TLS (tls-workload.c): run a client that wants TLS on SOCK, MODE
 * saying how (bit 0: X.509, else PSK; bit 1: opt mode and
 * nbd_opt_starttls, else TLS required at connect).  FUZZED: the server
 * cannot finish the handshake, so TLS must never be negotiated.
 * Returns the last step's result.
 */
extern int tls_workload_run (int sock, unsigned mode, bool fuzzed);

/* Run INPUT as a TLS server's bytes: its first byte is the MODE above,
 * the rest follows a greeting and an ACK to NBD_OPT_STARTTLS (so it is
 * the TLS records: ServerHello and on), the server's side then closed.
 */
extern void workload_tls (const uint8_t *input, size_t len);

/* Between two bursts of a server's bytes (pace.c). */
#define WORKLOAD_SEPARATOR_LEN 8
extern const uint8_t workload_separator[WORKLOAD_SEPARATOR_LEN];

/* Feed INPUT's bursts into FD, the server's end of the client's
 * socket: the first now, each next one when the client waits in poll
 * with nothing to read; after the last, shut FD down if CLOSE_AT_END.
 * pace_stop: no more (poll is the C library's again).
 */
extern void pace_start (int fd, const uint8_t *input, size_t len,
                        bool close_at_end);
extern void pace_stop (void);

/* Longest input: the socket buffer must hold all of it. */
#define WORKLOAD_MAX_INPUT (64 * 1024)

#endif /* FUZZ_WORKLOAD_H */
