/* tls-fake-server.c: an NBD server on stdin/stdout that mishandles
 * NBD_OPT_STARTTLS on cue, for tls-no-downgrade.sh.
 *
 * Usage: tls-fake-server SCENARIO
 *
 *   refuse      NBD_OPT_STARTTLS is refused as unsupported
 *   plaintext   NBD_OPT_STARTTLS is accepted, then plaintext follows
 *               instead of a TLS handshake (a man in the middle
 *               stripping TLS)
 *   bad-reply   NBD_OPT_STARTTLS gets NBD_REP_INFO, neither an ACK nor
 *               an error
 *
 * Every other option is refused as unsupported; the server exits when
 * the client goes away or aborts.  It never serves data: a client that
 * requires TLS must never get that far.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <endian.h>

#define NBDMAGIC UINT64_C (0x4e42444d41474943)
#define IHAVEOPT UINT64_C (0x49484156454F5054)
#define OPT_REPLY_MAGIC UINT64_C (0x3e889045565a9)
#define FLAG_FIXED_NEWSTYLE 1
#define OPT_ABORT 2
#define OPT_STARTTLS 5
#define OPT_GO 7
#define REP_ACK 1
#define REP_INFO 3
#define REP_ERR_UNSUP 0x80000001

static const char *scenario;

/* Read exactly LEN bytes; exit quietly when the client goes away. */
static void
get (void *buf, size_t len)
{
  char *p = buf;
  ssize_t r;

  while (len > 0) {
    r = read (STDIN_FILENO, p, len);
    if (r == -1 && errno == EINTR)
      continue;
    if (r <= 0)
      exit (EXIT_SUCCESS);
    p += r;
    len -= r;
  }
}

static void
put (const void *buf, size_t len)
{
  const char *p = buf;
  ssize_t r;

  while (len > 0) {
    r = write (STDOUT_FILENO, p, len);
    if (r == -1 && errno == EINTR)
      continue;
    if (r <= 0)
      exit (EXIT_SUCCESS);
    p += r;
    len -= r;
  }
}

static void
put_u16 (uint16_t v)
{
  v = htobe16 (v);
  put (&v, sizeof v);
}

static void
put_u32 (uint32_t v)
{
  v = htobe32 (v);
  put (&v, sizeof v);
}

static void
put_u64 (uint64_t v)
{
  v = htobe64 (v);
  put (&v, sizeof v);
}

/* An option reply without payload. */
static void
opt_reply (uint32_t option, uint32_t reply)
{
  put_u64 (OPT_REPLY_MAGIC);
  put_u32 (option);
  put_u32 (reply);
  put_u32 (0);
}

static void
starttls (void)
{
  if (strcmp (scenario, "plaintext") == 0) {
    opt_reply (OPT_STARTTLS, REP_ACK);
    opt_reply (OPT_GO, REP_ACK);        /* not a TLS ServerHello */
  }
  else if (strcmp (scenario, "bad-reply") == 0)
    opt_reply (OPT_STARTTLS, REP_INFO);
  else
    opt_reply (OPT_STARTTLS, REP_ERR_UNSUP);
}

int
main (int argc, char *argv[])
{
  struct { uint64_t magic; uint32_t option, len; } __attribute__ ((packed))
    opt;
  uint32_t client_flags;
  char skip[256];

  if (argc != 2) {
    fprintf (stderr, "usage: tls-fake-server refuse|plaintext|bad-reply\n");
    exit (EXIT_FAILURE);
  }
  scenario = argv[1];
  put_u64 (NBDMAGIC);
  put_u64 (IHAVEOPT);
  put_u16 (FLAG_FIXED_NEWSTYLE);
  get (&client_flags, sizeof client_flags);
  for (;;) {
    get (&opt, sizeof opt);
    if (be64toh (opt.magic) != IHAVEOPT)
      exit (EXIT_SUCCESS);        /* a TLS ClientHello, say: hang up */
    opt.option = be32toh (opt.option);
    for (opt.len = be32toh (opt.len); opt.len > 0; ) {
      size_t n = opt.len < sizeof skip ? opt.len : sizeof skip;

      get (skip, n);
      opt.len -= n;
    }
    if (opt.option == OPT_STARTTLS)
      starttls ();
    else {
      opt_reply (opt.option, opt.option == OPT_ABORT ? REP_ACK
                 : REP_ERR_UNSUP);
      if (opt.option == OPT_ABORT)
        exit (EXIT_SUCCESS);
    }
  }
}
