/* tls-workload.c: a client that requires TLS, against a fuzzed handshake. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/socket.h>

#include <libnbd.h>

#include "check.h"
#include "workload.h"

/* The credentials, written once into a private directory: a PSK file
 * for user "fuzz" and a CA certificate that signed nothing the fuzzer
 * can send.  make-seeds.sh gives nbdkit the same PSK.
 */
static const char psk_line[] =
  "fuzz:8d954399b9b28a4696b0788ce59c2fad8e47d7a521f3bd95008b82383b4ba92e\n";
static const char ca_cert[] =
  "-----BEGIN CERTIFICATE-----\n"
  "MIIBdzCCARygAwIBAgIUcEaavGWZLibnDcvpgW9jpO17/nkwCgYIKoZIzj0EAwIw\n"
  "GTEXMBUGA1UEAxMObGlibmJkIGZ1enogQ0EwHhcNMjYxMjAxMjA1NDU1WhcNMzYx\n"
  "MTI4MjA1NDU1WjAZMRcwFQYDVQQDEw5saWJuYmQgZnV6eiBDQTBZMBMGByqGSM49\n"
  "AgEGCCqGSM49AwEHA0IABM0hhgaeKCTidTdLnh6NOVQN4DlHMUcF3yoeQjUiSvjA\n"
  "J86avBtAYU48VRjE51I3TJ2RpB9q32E6vKbl2In4RO+jQjBAMA8GA1UdEwEB/wQF\n"
  "MAMBAf8wDgYDVR0PAQH/BAQDAgIEMB0GA1UdDgQWBBRzslurLvvLz5nAyGh9zP2x\n"
  "7B2evTAKBggqhkjOPQQDAgNJADBGAiEAovAURhYK2foBDRGtOU/YpKxh7gpBbvNt\n"
  "v3jQiv/AiC0CIQDckAJ6U0PaVeDCQLRcNsq2jhq+dYINOSgcogark9aG5A==\n"
  "-----END CERTIFICATE-----\n";

static char dir[] = "/tmp/libnbd-fuzz-tls.XXXXXX";
static char psk_file[sizeof dir + 16];

static void
write_file (const char *path, const char *text)
{
  FILE *fp = fopen (path, "w");

  CHECK (fp != NULL);
  CHECK (fputs (text, fp) >= 0);
  CHECK (fclose (fp) == 0);
}

static void
remove_credentials (void)
{
  char path[sizeof dir + 16];

  unlink (psk_file);
  snprintf (path, sizeof path, "%s/ca-cert.pem", dir);
  unlink (path);
  rmdir (dir);
}

static void
make_credentials (void)
{
  char path[sizeof dir + 16];

  if (psk_file[0])
    return;
  CHECK (mkdtemp (dir) != NULL);
  snprintf (psk_file, sizeof psk_file, "%s/keys.psk", dir);
  write_file (psk_file, psk_line);
  snprintf (path, sizeof path, "%s/ca-cert.pem", dir);
  write_file (path, ca_cert);
  atexit (remove_credentials);
}

/* Set up H as MODE says: bit 0 X.509 (else PSK); bit 1 opt mode,
 * TLS left to nbd_opt_starttls and no other option asked for (else
 * nbd_connect_socket with TLS required, STARTTLS the first option).
 */
static void
setup (struct nbd_handle *h, unsigned mode)
{
  bool opt = (mode & 2) != 0;

  make_credentials ();
  if (mode & 1) {
    CHECK (nbd_set_tls_certificates (h, dir) == 0);
    CHECK (nbd_set_tls_hostname (h, "localhost") == 0);
  }
  else {
    CHECK (nbd_set_tls_psk_file (h, psk_file) == 0);
    CHECK (nbd_set_tls_username (h, "fuzz") == 0);
  }
  CHECK (nbd_set_tls (h, opt ? LIBNBD_TLS_DISABLE : LIBNBD_TLS_REQUIRE) == 0);
  CHECK (nbd_set_opt_mode (h, opt) == 0);
  CHECK (nbd_set_request_structured_replies (h, !opt) == 0);
  CHECK (nbd_set_request_extended_headers (h, !opt) == 0);
}

/* A failure must say why (with no errno where libnbd gives none: an
 * end of file, a malformed reply).  Against fuzzed bytes the handshake can
 * never succeed (they know neither the key nor the CA), so TLS must
 * never count as negotiated.
 */
static void
check_outcome (struct nbd_handle *h, int r, bool fuzzed)
{
  if (r == -1)
    CHECK (nbd_get_error () != NULL);
  if (fuzzed)
    CHECK (nbd_get_tls_negotiated (h) != 1);
}

int
tls_workload_run (int sock, unsigned mode, bool fuzzed)
{
  struct nbd_handle *h = nbd_create ();
  char buf[512];
  int r;

  CHECK (h != NULL);
  setup (h, mode);
  r = nbd_connect_socket (h, sock);
  check_outcome (h, r, fuzzed);
  if (r != -1 && (mode & 2)) {
    check_outcome (h, r = nbd_opt_starttls (h), fuzzed);
    if (r != -1)
      check_outcome (h, r = nbd_opt_go (h), fuzzed);
  }
  if (r != -1)
    check_outcome (h, r = nbd_pread (h, buf, sizeof buf, 0, 0), fuzzed);
  if (r != -1)
    check_outcome (h, r = nbd_shutdown (h, 0), fuzzed);
  nbd_close (h);
  return r;
}

/* What a server says before the handshake: the newstyle greeting
 * (FIXED_NEWSTYLE | NO_ZEROES), then NBD_REP_ACK to NBD_OPT_STARTTLS.
 */
static const uint8_t prefix[] = {
  'N', 'B', 'D', 'M', 'A', 'G', 'I', 'C',
  'I', 'H', 'A', 'V', 'E', 'O', 'P', 'T',
  0, 3,
  0, 3, 0xe8, 0x89, 0x04, 0x55, 0x65, 0xa9,
  0, 0, 0, 5,
  0, 0, 0, 1,
  0, 0, 0, 0,
};

/* The server's side, in a thread: the greeting and the ACK at once,
 * the input only when the client has started the handshake (bytes
 * that came with the ACK would be refused as injected plaintext), then
 * the end of the input.  It reads the client until the client closes.
 */
struct feeder {
  int fd;
  const uint8_t *input;
  size_t len;
};

/* Client bytes before the ClientHello: its flags and NBD_OPT_STARTTLS. */
#define CLIENT_PLAINTEXT (4 + 16)

static void *
feed (void *arg)
{
  struct feeder *f = arg;
  char buf[4096];
  size_t got = 0;
  bool sent = false;
  ssize_t r;

  /* The client may hang up at any point: writes may fail. */
  (void) !write (f->fd, prefix, sizeof prefix);
  while ((r = read (f->fd, buf, sizeof buf)) > 0) {
    got += r;
    if (!sent && got > CLIENT_PLAINTEXT) {
      (void) !write (f->fd, f->input, f->len);
      shutdown (f->fd, SHUT_WR);
      sent = true;
    }
  }
  return NULL;
}

void
workload_tls (const uint8_t *input, size_t len)
{
  struct feeder f;
  pthread_t thread;
  int fds[2];

  if (len < 1 || len - 1 > WORKLOAD_MAX_INPUT - sizeof prefix)
    return;
  CHECK (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
  f = (struct feeder) { fds[1], input + 1, len - 1 };
  CHECK (pthread_create (&thread, NULL, feed, &f) == 0);
  tls_workload_run (fds[0], input[0], true);
  CHECK (pthread_join (thread, NULL) == 0);
  close (fds[1]);
}
