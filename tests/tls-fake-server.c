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

#include "fake-wire.h"

static const char *scenario;


static void
starttls (void)
{
  if (strcmp (scenario, "plaintext") == 0) {
    opt_reply (OPT_STARTTLS, REP_ACK, 0);
    opt_reply (OPT_GO, REP_ACK, 0);        /* not a TLS ServerHello */
  }
  else if (strcmp (scenario, "bad-reply") == 0)
    opt_reply (OPT_STARTTLS, REP_INFO, 0);
  else
    opt_reply (OPT_STARTTLS, REP_ERR_UNSUP, 0);
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
  put64 (NBDMAGIC);
  put64 (IHAVEOPT);
  put16 (FLAG_FIXED_NEWSTYLE);
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
                 : REP_ERR_UNSUP, 0);
      if (opt.option == OPT_ABORT)
        exit (EXIT_SUCCESS);
    }
  }
}
