/* tls-client.c: connect with the TLS settings given, then either move
 * data and check it, or check the connection failed as expected.  The
 * tls-*.sh tests run it against servers they start.
 *
 * tls-client [--tls allow|require|disable] [--psk FILE] [--user NAME]
 *            [--certs DIR] [--hostname NAME] [--no-verify]
 *            [--negotiated 0|1] [--aio] [--fail ERRNO-NAME[|ERRNO-NAME]]
 *            [--max-sent BYTES] [--opt-starttls 0|1 [--opt-sync]]
 *            [--manual-poll] [--message TEXT]
 *            (--uri URI | -- SERVER ARGV...)
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <poll.h>

#include <libnbd.h>

#include "test-common.h"

#define NR_CMDS 64
#define BLOCK 65536
#define MAX_FAIL 4

struct options {
  int tls;
  const char *psk, *user, *certs, *hostname, *uri;
  int verify;
  int negotiated;               /* -1: don't check */
  int aio;
  int fail[MAX_FAIL];           /* errnos accepted; [0] == 0: success */
  long max_sent;                /* on failure, -1: don't check */
  int opt_starttls;             /* -1: no opt mode, else the result */
  int manual_poll;              /* connect with our own poll loop */
  int opt_sync;                 /* nbd_opt_starttls, not the aio call */
  const char *message;          /* on failure, in the error, or NULL */
  const char *priority;         /* nbd_set_tls_priority, or NULL */
  char **argv;
};

/* "NOERRNO": the call fails without an errno, as libnbd reports a
 * malformed reply.
 */
#define NOERRNO (-2)

static int
errno_of_name (const char *s)
{
  static const struct { const char *name; int err; } names[] = {
    { "ENOENT", ENOENT }, { "EINVAL", EINVAL }, { "EPROTO", EPROTO },
    { "ENOTSUP", ENOTSUP }, { "ECONNRESET", ECONNRESET },
    { "EPERM", EPERM }, { "ENOTDIR", ENOTDIR }, { "EPIPE", EPIPE },
    { "NOERRNO", NOERRNO },
  };
  size_t i;

  for (i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strcmp (s, names[i].name) == 0)
      return names[i].err;
  FAIL ("unknown errno name %s", s);
}

static int
tls_of_name (const char *s)
{
  if (strcmp (s, "allow") == 0)
    return LIBNBD_TLS_ALLOW;
  if (strcmp (s, "require") == 0)
    return LIBNBD_TLS_REQUIRE;
  if (strcmp (s, "disable") == 0)
    return LIBNBD_TLS_DISABLE;
  FAIL ("unknown TLS setting %s", s);
}

/* "EPROTO", or where a race decides, alternatives: "EPROTO|EPIPE". */
static void
parse_fail (struct options *o, char *arg)
{
  char *name;
  size_t n = 0;

  for (name = strtok (arg, "|"); name; name = strtok (NULL, "|")) {
    if (n == MAX_FAIL)
      FAIL ("too many errno names");
    o->fail[n++] = errno_of_name (name);
  }
}

/* The errno expected: the one that happened if it is in the list. */
static int
expected_errno (const struct options *o)
{
  size_t i;

  for (i = 0; i < MAX_FAIL && o->fail[i]; ++i)
    if (o->fail[i] == nbd_get_errno () ||
        (o->fail[i] == NOERRNO && nbd_get_errno () == 0))
      return o->fail[i] == NOERRNO ? 0 : o->fail[i];
  return o->fail[0] == NOERRNO ? 0 : o->fail[0];
}

static void
parse (int argc, char **argv, struct options *o)
{
  static const struct option longs[] = {
    { "tls", 1, NULL, 't' }, { "psk", 1, NULL, 'p' },
    { "user", 1, NULL, 'u' }, { "certs", 1, NULL, 'c' },
    { "hostname", 1, NULL, 'H' }, { "no-verify", 0, NULL, 'V' },
    { "negotiated", 1, NULL, 'n' }, { "aio", 0, NULL, 'a' },
    { "fail", 1, NULL, 'f' }, { "uri", 1, NULL, 'U' },
    { "max-sent", 1, NULL, 'm' }, { "opt-starttls", 1, NULL, 'o' },
    { "manual-poll", 0, NULL, 'M' }, { "opt-sync", 0, NULL, 'O' },
    { "message", 1, NULL, 'E' },
    { "priority", 1, NULL, 'P' },
    { NULL, 0, NULL, 0 },
  };
  int c;

  memset (o, 0, sizeof *o);
  o->tls = LIBNBD_TLS_REQUIRE;
  o->verify = 1;
  o->negotiated = -1;
  o->max_sent = -1;
  o->opt_starttls = -1;
  while ((c = getopt_long (argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case 't': o->tls = tls_of_name (optarg); break;
    case 'p': o->psk = optarg; break;
    case 'u': o->user = optarg; break;
    case 'c': o->certs = optarg; break;
    case 'H': o->hostname = optarg; break;
    case 'V': o->verify = 0; break;
    case 'n': o->negotiated = atoi (optarg); break;
    case 'a': o->aio = 1; break;
    case 'f': parse_fail (o, optarg); break;
    case 'U': o->uri = optarg; break;
    case 'm': o->max_sent = atol (optarg); break;
    case 'o': o->opt_starttls = atoi (optarg); break;
    case 'M': o->manual_poll = 1; break;
    case 'O': o->opt_sync = 1; break;
    case 'E': o->message = optarg; break;
    case 'P': o->priority = optarg; break;
    default: FAIL ("bad option");
    }
  }
  o->argv = &argv[optind];
  if (o->uri == NULL && o->argv[0] == NULL)
    FAIL ("no server command and no --uri");
}

static void
apply (struct nbd_handle *h, const struct options *o)
{
  if (o->priority)
    CHECK (nbd_set_tls_priority (h, o->priority) == 0);
  if (o->uri) {
    /* The URI says everything; only local files need permission. */
    CHECK (nbd_set_uri_allow_local_file (h, true) == 0);
    return;
  }
  CHECK (nbd_set_tls (h, o->tls) == 0);
  if (o->psk)
    CHECK (nbd_set_tls_psk_file (h, o->psk) == 0);
  if (o->user)
    CHECK (nbd_set_tls_username (h, o->user) == 0);
  if (o->certs)
    CHECK (nbd_set_tls_certificates (h, o->certs) == 0);
  if (o->hostname)
    CHECK (nbd_set_tls_hostname (h, o->hostname) == 0);
  CHECK (nbd_set_tls_verify_peer (h, o->verify) == 0);
}

/* Write a pattern, read it back, compare: the data really flows. */
static void
sync_io (struct nbd_handle *h)
{
  static char wbuf[BLOCK], rbuf[BLOCK];
  size_t i;

  for (i = 0; i < BLOCK; ++i)
    wbuf[i] = (char) (i * 13 + 7);
  CHECK (nbd_pwrite (h, wbuf, BLOCK, 4096, 0) == 0);
  CHECK (nbd_pread (h, rbuf, BLOCK, 4096, 0) == 0);
  if (memcmp (wbuf, rbuf, BLOCK) != 0)
    FAIL ("data read back differs");
}

/* Queue NR_CMDS commands, then poll until all have completed. */
static void
aio_batch (struct nbd_handle *h, unsigned char *buf, int write)
{
  int64_t cookies[NR_CMDS];
  int i, done;

  for (i = 0; i < NR_CMDS; ++i) {
    cookies[i] = write
      ? nbd_aio_pwrite (h, buf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                        NBD_NULL_COMPLETION, 0)
      : nbd_aio_pread (h, buf + i * BLOCK, BLOCK, (uint64_t) i * BLOCK,
                       NBD_NULL_COMPLETION, 0);
    CHECK (cookies[i] > 0);
  }
  CHECK (nbd_aio_in_flight (h) == NR_CMDS);
  for (done = 0; done < NR_CMDS; ) {
    CHECK (nbd_poll (h, -1) != -1);
    for (done = 0, i = 0; i < NR_CMDS; ++i)
      if (cookies[i] == 0)
        done++;
      else if (nbd_aio_command_completed (h, cookies[i]) == 1)
        cookies[i] = 0, done++;
  }
}

static void
aio_io (struct nbd_handle *h)
{
  unsigned char *wbuf = malloc (NR_CMDS * BLOCK);
  unsigned char *rbuf = calloc (NR_CMDS, BLOCK);
  size_t i;

  CHECK (wbuf != NULL && rbuf != NULL);
  for (i = 0; i < NR_CMDS * BLOCK; ++i)
    wbuf[i] = (i * 7 + i / 4096) & 0xff;
  aio_batch (h, wbuf, 1);
  aio_batch (h, rbuf, 0);
  if (memcmp (wbuf, rbuf, NR_CMDS * BLOCK) != 0)
    FAIL ("aio data read back differs");
  free (wbuf);
  free (rbuf);
}

/* Connect with nbd_aio_connect_command and our own poll loop, waiting
 * for what nbd_aio_get_direction says: the TLS handshake must report
 * the direction GnuTLS needs, or this loop stalls (and the test times
 * out).
 */
static int
connect_manual (struct nbd_handle *h, char **argv)
{
  if (nbd_aio_connect_command (h, argv) == -1)
    return -1;
  while (nbd_aio_is_connecting (h)) {
    unsigned dir = nbd_aio_get_direction (h);
    struct pollfd p = { .fd = nbd_aio_get_fd (h), .events = 0 };

    CHECK (p.fd >= 0);
    if (dir & LIBNBD_AIO_DIRECTION_READ)
      p.events |= POLLIN;
    if (dir & LIBNBD_AIO_DIRECTION_WRITE)
      p.events |= POLLOUT;
    CHECK (p.events != 0);
    CHECK (poll (&p, 1, 30000) == 1);
    if ((p.revents & (POLLIN | POLLHUP | POLLERR)) &&
        (dir & LIBNBD_AIO_DIRECTION_READ)) {
      if (nbd_aio_notify_read (h) == -1)
        return -1;
    }
    else if (nbd_aio_notify_write (h) == -1)
      return -1;
  }
  return nbd_aio_is_ready (h) ? 0 : -1;
}

/* Completion of nbd_aio_opt_starttls: count the calls, keep *error. */
static int
starttls_done (void *user_data, int *error)
{
  int *calls = user_data;

  calls[0]++;
  calls[1] = *error;
  return 1;
}

/* The aio form, with a completion callback, until it has answered. */
static void
aio_starttls (struct nbd_handle *h)
{
  int calls[2] = { 0, -1 };

  CHECK (nbd_aio_opt_starttls (h, (nbd_completion_callback) {
        .callback = starttls_done, .user_data = calls }) == 0);
  while (nbd_aio_is_connecting (h))
    CHECK (nbd_poll (h, -1) != -1);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  /* A refusal is an answer, not an error: *error is 0 either way. */
  CHECK (calls[0] == 1 && calls[1] == 0);
}

/* Opt mode: ask for TLS by hand (the aio or the synchronous call),
 * then again, which a server must refuse without undoing TLS; then
 * pick the export.
 */
static void
opt_starttls (struct nbd_handle *h, const struct options *o)
{
  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_get_tls_negotiated (h) == 0);
  if (o->opt_sync)
    CHECK (nbd_opt_starttls (h) == o->opt_starttls);
  else
    aio_starttls (h);
  CHECK (nbd_get_tls_negotiated (h) == o->opt_starttls);
  if (o->opt_starttls) {
    CHECK (nbd_opt_starttls (h) == 0);
    CHECK (nbd_get_tls_negotiated (h) == 1);
  }
  CHECK (nbd_opt_go (h) == 0);
}

int
main (int argc, char *argv[])
{
  struct options o;
  struct nbd_handle *h;
  int r;

  parse (argc, argv, &o);
  h = nbd_create ();
  CHECK (h != NULL);
  apply (h, &o);
  if (o.opt_starttls >= 0)
    CHECK (nbd_set_opt_mode (h, true) == 0);
  if (o.uri)
    r = nbd_connect_uri (h, o.uri);
  else if (o.manual_poll)
    r = connect_manual (h, o.argv);
  else
    r = nbd_connect_command (h, o.argv);
  if (o.fail[0]) {
    if (r != -1)
      FAIL ("connected, but expected failure with errno %d", o.fail[0]);
    fprintf (stderr, "tls-client: failed as expected: %s\n",
             nbd_get_error ());
    CHECK_ERROR (expected_errno (&o), o.uri ? "nbd_connect_uri: "
                 : "nbd_connect_command: ");
    if (o.message && strstr (nbd_get_error (), o.message) == NULL)
      FAIL ("the error does not say \"%s\"", o.message);
    /* No request went out in plaintext: only the handshake so far. */
    if (o.max_sent >= 0 && nbd_stats_bytes_sent (h) > (uint64_t) o.max_sent)
      FAIL ("%" PRIu64 " bytes sent, expected at most %ld",
            nbd_stats_bytes_sent (h), o.max_sent);
    /* Nothing more can be done on this connection. */
    CHECK (nbd_aio_is_ready (h) == 0);
    CHECK (nbd_pread (h, (char[512]){0}, 512, 0, 0) == -1);
    nbd_close (h);
    exit (EXIT_SUCCESS);
  }
  CHECK (r == 0);
  if (o.opt_starttls >= 0)
    opt_starttls (h, &o);
  if (o.negotiated >= 0)
    CHECK (nbd_get_tls_negotiated (h) == o.negotiated);
  if (o.aio)
    aio_io (h);
  else
    sync_io (h);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
