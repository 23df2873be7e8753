/* crypto.c: the GnuTLS socket, put over the plain one after the server
 * accepts NBD_OPT_STARTTLS, and its credentials (X.509 or PSK).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#ifdef HAVE_GNUTLS
#include <gnutls/gnutls.h>
#include <gnutls/socket.h>
#endif

#include "internal.h"

#ifdef HAVE_GNUTLS

/* Payload bytes of a full TLS record. */
#define TLS_RECORD_SIZE 16384

struct tls_socket {
  struct socket base;           /* first: h->sock points here */
  struct socket *plain;         /* the socket underneath, closed with us */
  gnutls_session_t session;
  gnutls_certificate_credentials_t xcred;  /* or NULL */
  gnutls_psk_client_credentials_t pskcred; /* or NULL */
  bool handshake_done;          /* close_notify makes sense */
  bool shut;                    /* we shut our side (after NBD_CMD_DISC) */
  bool ended;                   /* the server ended the stream cleanly */
  /* The fatal error GnuTLS last returned, or 0.  After one GnuTLS
   * invalidates the session, and every later call says only
   * GNUTLS_E_INVALID_SESSION: we say this again instead.
   */
  int fatal;
  /* A send that GnuTLS took but the kernel did not (EAGAIN): it must be
   * finished before anything else is sent, and then counts as sent.
   */
  enum { FLUSH_NONE, FLUSH_RECORD, FLUSH_CORK } flush;
  size_t corked;                /* FLUSH_CORK: plaintext bytes held */
  /* Ciphertext read ahead, or NULL (see pull). */
  char *raw;
  size_t raw_start, raw_end;
};

/* The errno for a fatal GnuTLS error: the peer hanging up is a reset
 * or a broken pipe, as on a plain socket; anything else is a broken
 * stream.
 */
static int
errno_of_gnutls (int err)
{
  switch (err) {
  case GNUTLS_E_PREMATURE_TERMINATION:
  case GNUTLS_E_PULL_ERROR:
    return ECONNRESET;
  case GNUTLS_E_PUSH_ERROR:
    return EPIPE;
  default:
    return EPROTO;
  }
}

/* A fatal error in recv or send: the caller reports errno and
 * sock->why.
 */
static ssize_t
tls_fail (struct tls_socket *t, int err)
{
  t->fatal = err;
  t->base.why = gnutls_strerror (err);
  errno = errno_of_gnutls (err);
  return -1;
}

/* A send after a fatal error: a peer that hung up is a broken pipe,
 * as on a plain socket.
 */
static ssize_t
tls_send_after_fatal (struct tls_socket *t)
{
  int err = errno_of_gnutls (t->fatal);

  t->base.why = gnutls_strerror (t->fatal);
  errno = err == ECONNRESET ? EPIPE : err;
  return -1;
}

/* Fill as much of BUF as the records already received allow, so that
 * a short count means the kernel had no more, exactly as for a plain
 * socket: the read-ahead logic relies on it.
 */
static ssize_t
tls_recv (struct socket *sock, void *buf, size_t len)
{
  struct tls_socket *t = (struct tls_socket *) sock;
  size_t got = 0;

  /* The end found after the last bytes read, or the error. */
  if (t->ended)
    return 0;
  if (t->fatal)
    return tls_fail (t, t->fatal);
  while (got < len) {
    ssize_t r = gnutls_record_recv (t->session, (char *) buf + got,
                                    len - got);

    if (r > 0)
      got += r;
    else if (r == 0 || (r == GNUTLS_E_PREMATURE_TERMINATION && t->shut)) {
      /* A clean end: close_notify, or a server (qemu-nbd) that just
       * closes once we disconnected.  Otherwise a missing close_notify
       * is an error, as in libnbd.
       */
      t->ended = true;
      break;
    }
    else if (r == GNUTLS_E_INTERRUPTED)
      continue;
    else if (r == GNUTLS_E_AGAIN) {
      if (got > 0)
        break;
      errno = EAGAIN;
      return -1;
    }
    else if (!gnutls_error_is_fatal (r))
      continue;                 /* a warning alert or a renegotiation */
    else if (got > 0) {
      t->fatal = r;             /* reported by the next call */
      break;
    }
    else
      return tls_fail (t, r);
  }
  return got;
}

/* Finish a send that blocked.  Returns the plaintext bytes it covered. */
static ssize_t
tls_flush (struct tls_socket *t)
{
  ssize_t r;

  if (t->flush == FLUSH_CORK)
    r = gnutls_record_uncork (t->session, 0);
  else
    r = gnutls_record_send (t->session, NULL, 0);
  if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) {
    errno = EAGAIN;
    return -1;
  }
  if (r < 0)
    return tls_fail (t, r);
  if (t->flush == FLUSH_CORK)
    r = t->corked;
  t->flush = FLUSH_NONE;
  return r;
}

/* MSG_MORE means nothing to GnuTLS: batching under TLS is the gather
 * buffer, whose headers and small payloads go out as full 16 KiB
 * records.  A gathered block followed by a large payload is corked
 * with the payload's start into one record, so a lone header never
 * costs a record of its own.  (For payloads that are multiples of 16
 * KiB the record count comes out the same either way: measured.)
 */
static ssize_t
tls_send_corked (struct tls_socket *t, const struct iovec *iov)
{
  size_t first = iov[0].iov_len;
  size_t second = iov[1].iov_len;
  ssize_t r;

  if (second > TLS_RECORD_SIZE - first)
    second = TLS_RECORD_SIZE - first;
  gnutls_record_cork (t->session);
  if (gnutls_record_send (t->session, iov[0].iov_base, first) < 0 ||
      gnutls_record_send (t->session, iov[1].iov_base, second) < 0) {
    (void) gnutls_record_uncork (t->session, 0);
    return tls_fail (t, GNUTLS_E_INTERNAL_ERROR);
  }
  t->corked = first + second;
  t->flush = FLUSH_CORK;
  r = gnutls_record_uncork (t->session, 0);
  if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) {
    errno = EAGAIN;             /* tls_flush finishes it */
    return -1;
  }
  t->flush = FLUSH_NONE;
  if (r < 0)
    return tls_fail (t, r);
  return t->corked;
}

/* The caller resends the same buffers after EAGAIN, as GnuTLS wants. */
static ssize_t
tls_sendv (struct socket *sock, const struct iovec *iov, int n, int flags)
{
  struct tls_socket *t = (struct tls_socket *) sock;
  ssize_t r;

  (void) flags;
  if (t->fatal)
    return tls_send_after_fatal (t);
  if (t->flush != FLUSH_NONE)
    return tls_flush (t);
  if (n >= 2 && iov[0].iov_len < TLS_RECORD_SIZE)
    return tls_send_corked (t, iov);
  r = gnutls_record_send (t->session, iov[0].iov_base, iov[0].iov_len);
  if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED) {
    t->flush = FLUSH_RECORD;
    errno = EAGAIN;
    return -1;
  }
  if (r < 0)
    return tls_fail (t, r);
  return r;
}

/* Decrypted bytes GnuTLS holds, or ciphertext we hold for it: either
 * way poll would not show them.
 */
static bool
tls_pending (struct socket *sock)
{
  struct tls_socket *t = (struct tls_socket *) sock;

  /* An end or an error already read, behind the last data returned,
   * is pending too: the server may wait for us to see it (a peer that
   * sent close_notify and waits for ours), and no poll would tell.
   */
  return gnutls_record_check_pending (t->session) > 0 ||
    t->raw_start < t->raw_end || t->ended || t->fatal != 0;
}

static int
tls_get_fd (struct socket *sock)
{
  return sock->fd;
}

/* Only a TCP FIN, no close_notify: a server that closes as soon as it
 * reads NBD_CMD_DISC would find the alert unread and answer with a
 * reset, failing the clean shutdown we still wait for.
 */
static int
tls_shut_writes (struct socket *sock)
{
  struct tls_socket *t = (struct tls_socket *) sock;

  t->shut = true;
  return t->plain->ops->shut_writes (t->plain);
}

/* Best effort close_notify: non-blocking, and the peer may be gone. */
static int
tls_close (struct socket *sock)
{
  struct tls_socket *t = (struct tls_socket *) sock;
  int r;

  if (t->handshake_done)
    (void) gnutls_bye (t->session, GNUTLS_SHUT_WR);
  gnutls_deinit (t->session);
  free (t->raw);
  if (t->xcred)
    gnutls_certificate_free_credentials (t->xcred);
  if (t->pskcred)
    gnutls_psk_free_client_credentials (t->pskcred);
  r = t->plain->ops->close (t->plain);
  free (t);
  return r;
}

static const struct socket_ops tls_ops = {
  .recv = tls_recv, .sendv = tls_sendv, .pending = tls_pending,
  .get_fd = tls_get_fd, .shut_writes = tls_shut_writes,
  .close = tls_close,
};

/* GnuTLS reads each record in two recv calls, its 5-byte header and
 * then its body, which is two syscalls per reply or more.  Reading
 * ahead in RAW_AHEAD_SIZE blocks takes many records at once, as the
 * plain socket does.  The handshake runs on GnuTLS's own fd transport,
 * so that GnuTLS can hand the session to kernel TLS; when it did not
 * (for receiving), reading switches to this read-ahead.
 */
#define RAW_AHEAD_SIZE (64 * 1024)

static ssize_t
pull (gnutls_transport_ptr_t ptr, void *buf, size_t len)
{
  struct tls_socket *t = ptr;
  size_t n;

  if (t->raw_start == t->raw_end) {
    ssize_t r = recv (t->base.fd, t->raw, RAW_AHEAD_SIZE, 0);

    if (r <= 0) {
      if (r == -1)
        gnutls_transport_set_errno (t->session, errno);
      return r;
    }
    t->raw_start = 0;
    t->raw_end = r;
  }
  n = t->raw_end - t->raw_start;
  if (n > len)
    n = len;
  memcpy (buf, t->raw + t->raw_start, n);
  t->raw_start += n;
  return n;
}

/* GnuTLS asks before blocking reads; ours never block, but say the
 * truth about buffered bytes.
 */
static int
pull_timeout (gnutls_transport_ptr_t ptr, unsigned ms)
{
  struct tls_socket *t = ptr;
  struct pollfd p = { .fd = t->base.fd, .events = POLLIN };

  if (t->raw_start < t->raw_end)
    return 1;
  return poll (&p, 1, ms == GNUTLS_INDEFINITE_TIMEOUT ? -1 : (int) ms);
}

/* After the handshake, unless kTLS receives: read through RAW. */
static int
use_read_ahead (struct tls_socket *t)
{
  t->raw = malloc (RAW_AHEAD_SIZE);
  if (t->raw == NULL) {
    set_error (errno, "malloc");
    return -1;
  }
  /* Sends still go straight to the fd. */
  gnutls_transport_set_ptr2 (t->session, t,
                             (gnutls_transport_ptr_t) (intptr_t) t->base.fd);
  gnutls_transport_set_pull_function (t->session, pull);
  gnutls_transport_set_pull_timeout_function (t->session, pull_timeout);
  return 0;
}

/* Look up USER in a psktool file of "username:hexkey" lines.  Returns
 * the key (malloc'd), or NULL with the error set.
 */
static char *
psk_lookup (const char *file, const char *user)
{
  FILE *fp = fopen (file, "r");
  size_t ulen = strlen (user), cap = 0;
  char *line = NULL, *key = NULL;
  bool found = false;
  ssize_t len;

  if (fp == NULL) {
    set_error (errno, "open: %s", file);
    return NULL;
  }
  while (!found && (len = getline (&line, &cap, fp)) != -1) {
    while (len > 0 && (line[len-1] == '\n' || line[len-1] == '\r'))
      line[--len] = '\0';
    found = (size_t) len > ulen && strncmp (line, user, ulen) == 0 &&
      line[ulen] == ':';
  }
  if (found) {
    key = strdup (line + ulen + 1);
    if (key == NULL)
      set_error (errno, "strdup");
  }
  else if (ferror (fp))
    set_error (EIO, "read: %s", file);
  else
    set_error (EINVAL, "%s: username %s was not found in PSK file",
               file, user);
  /* The file's lines hold keys: leave none behind in freed memory. */
  if (line)
    explicit_bzero (line, cap);
  free (line);
  fclose (fp);
  return key;
}

static int
gnutls_error (int err, const char *what)
{
  set_error (EPROTO, "%s: %s", what, gnutls_strerror (err));
  return -1;
}

static int
setup_psk (struct nbd_handle *h, struct tls_socket *t)
{
  char *user = nbd_unlocked_get_tls_username (h);
  char *key = NULL;
  gnutls_datum_t datum;
  int err, r = -1;

  if (user == NULL)
    return -1;
  key = psk_lookup (h->tls_psk_file, user);
  if (key == NULL)
    goto out;
  err = gnutls_psk_allocate_client_credentials (&t->pskcred);
  if (err < 0) {
    gnutls_error (err, "gnutls_psk_allocate_client_credentials");
    goto out;
  }
  datum.data = (unsigned char *) key;
  datum.size = strlen (key);
  err = gnutls_psk_set_client_credentials (t->pskcred, user, &datum,
                                           GNUTLS_PSK_KEY_HEX);
  if (err < 0) {
    gnutls_error (err, "gnutls_psk_set_client_credentials");
    goto out;
  }
  if (nbd_internal_tls_set_priority (h, t->session, true) == -1)
    goto out;
  err = gnutls_credentials_set (t->session, GNUTLS_CRD_PSK, t->pskcred);
  if (err < 0) {
    gnutls_error (err, "gnutls_credentials_set");
    goto out;
  }
  r = 0;
 out:
  if (key)
    explicit_bzero (key, strlen (key));
  free (key);
  free (user);
  return r;
}

/* DIR/NAME, or NULL with the error set. */
static char *
path_in (const char *dir, const char *name)
{
  char *path;

  if (asprintf (&path, "%s/%s", dir, name) == -1) {
    set_error (errno, "asprintf");
    return NULL;
  }
  return path;
}

static bool
readable (const char *path)
{
  return access (path, R_OK) == 0;
}

/* Whether DIR holds a readable ca-cert.pem: 1 or 0, -1 on ENOMEM. */
static int
has_ca (const char *dir)
{
  char *ca = path_in (dir, "ca-cert.pem");
  int r;

  if (ca == NULL)
    return -1;
  r = readable (ca);
  free (ca);
  return r;
}

/* The default certificates directories, in the order libnbd tries
 * them: /etc/pki/libnbd for root, else two under $HOME.  Returns how
 * many were put in DIRS (malloc'd), or -1 with the error set.
 */
static int
default_dirs (char *dirs[2])
{
  const char *home = getenv ("HOME");

  if (geteuid () == 0) {
    dirs[0] = strdup ("/etc/pki/libnbd");
    if (dirs[0] == NULL) {
      set_error (errno, "strdup");
      return -1;
    }
    return 1;
  }
  if (home == NULL)
    return 0;
  if (asprintf (&dirs[0], "%s/.pki/libnbd", home) == -1) {
    set_error (errno, "asprintf");
    return -1;
  }
  if (asprintf (&dirs[1], "%s/.config/pki/libnbd", home) == -1) {
    set_error (errno, "asprintf");
    free (dirs[0]);
    return -1;
  }
  return 2;
}

/* The certificates directory (malloc'd), or NULL for none: the
 * system's CAs then, and no client certificate.  As in libnbd, a
 * directory counts only if it holds ca-cert.pem: the one set, else
 * the first default that does.  NULL with *OOM set (and the error) on
 * ENOMEM.
 */
static char *
certificates_dir (struct nbd_handle *h, bool *oom)
{
  char *dirs[2] = { NULL, NULL }, *found = NULL;
  int i, n, r;

  if (h->tls_certificates == NULL)
    n = default_dirs (dirs);
  else if ((dirs[0] = strdup (h->tls_certificates)) != NULL)
    n = 1;
  else {
    set_error (errno, "strdup");
    n = -1;
  }
  *oom = n == -1;
  for (i = 0; i < n; ++i) {
    if (found == NULL && !*oom) {
      r = has_ca (dirs[i]);
      if (r == 1) {
        found = dirs[i];
        continue;
      }
      *oom = r == -1;
      if (r == 0)
        debug (h, "TLS certificates directory %s: no ca-cert.pem, "
               "passed over", dirs[i]);
    }
    free (dirs[i]);
  }
  if (*oom) {
    free (found);
    return NULL;
  }
  return found;
}

/* Load DIR/CERT and DIR/KEY as one client certificate if both can be
 * read.  Returns 1 loaded, 0 not both there, -1 error (set).
 */
static int
load_pair (struct nbd_handle *h, struct tls_socket *t, const char *dir,
           const char *cert_name, const char *key_name)
{
  char *cert = path_in (dir, cert_name);
  char *key = cert ? path_in (dir, key_name) : NULL;
  bool have_cert, have_key;
  int err, r = -1;

  if (key == NULL)
    goto out;
  have_cert = readable (cert);
  have_key = readable (key);
  r = have_cert && have_key;
  if (r == 0) {
    if (have_cert || have_key)
      debug (h, "TLS: %s without %s: not loaded",
             have_cert ? cert : key, have_cert ? key : cert);
    goto out;
  }
  err = gnutls_certificate_set_x509_key_file (t->xcred, cert, key,
                                              GNUTLS_X509_FMT_PEM);
  if (err < 0) {
    set_error (EPROTO, "gnutls_certificate_set_x509_key_file: %s, %s: %s",
               cert, key, gnutls_strerror (err));
    r = -1;
  }
  else
    debug (h, "TLS: client certificate %s loaded", cert);
 out:
  free (cert);
  free (key);
  return r;
}

/* client-cert-N.pem with client-key-N.pem for N = 0, 1, ... beside
 * client-cert.pem, as libnbd 1.24 reads them: the first N without
 * both files ends the list, without an error.  GnuTLS sends the
 * server the one certificate its request fits (the CAs it names, the
 * signature algorithms it accepts): an RSA one beside an ECDSA one, a
 * post-quantum one beside a classical one.
 */
static int
load_numbered (struct nbd_handle *h, struct tls_socket *t, const char *dir)
{
  char cert[64], key[64];
  size_t n;
  int r;

  for (n = 0; ; ++n) {
    snprintf (cert, sizeof cert, "client-cert-%zu.pem", n);
    snprintf (key, sizeof key, "client-key-%zu.pem", n);
    r = load_pair (h, t, dir, cert, key);
    if (r <= 0)
      return r;
  }
}

/* Load what DIR (which holds ca-cert.pem) holds: the CA, the client
 * certificates and keys, a revocation list.  The messages are
 * libnbd's.
 */
static int
load_x509_dir (struct nbd_handle *h, struct tls_socket *t, const char *dir)
{
  char *ca = path_in (dir, "ca-cert.pem");
  char *crl = ca ? path_in (dir, "ca-crl.pem") : NULL;
  int err, r = -1;

  if (crl == NULL)
    goto out;
  err = gnutls_certificate_set_x509_trust_file (t->xcred, ca,
                                                GNUTLS_X509_FMT_PEM);
  if (err < 0) {
    set_error (EPROTO, "gnutls_certificate_set_x509_trust_file: %s: %s",
               ca, gnutls_strerror (err));
    goto out;
  }
  if (load_pair (h, t, dir, "client-cert.pem", "client-key.pem") == -1 ||
      load_numbered (h, t, dir) == -1)
    goto out;
  if (readable (crl)) {
    err = gnutls_certificate_set_x509_crl_file (t->xcred, crl,
                                                GNUTLS_X509_FMT_PEM);
    if (err < 0) {
      set_error (EPROTO, "gnutls_certificate_set_x509_crl_file: %s: %s",
                 crl, gnutls_strerror (err));
      goto out;
    }
  }
  r = 0;
 out:
  free (ca);
  free (crl);
  return r;
}

static bool
is_address (const char *s)
{
  struct in6_addr a;

  return inet_pton (AF_INET, s, &a) == 1 || inet_pton (AF_INET6, s, &a) == 1;
}

static int
setup_x509 (struct nbd_handle *h, struct tls_socket *t)
{
  bool oom = false;
  char *dir = certificates_dir (h, &oom);
  const char *hostname = h->tls_hostname ? h->tls_hostname : h->hostname;
  int err, r;

  if (oom)
    return -1;
  err = gnutls_certificate_allocate_credentials (&t->xcred);
  if (err < 0) {
    free (dir);
    return gnutls_error (err, "gnutls_certificate_allocate_credentials");
  }
  /* No directory with a CA (the one set may be missing altogether):
   * the system's CAs, as in libnbd, so with tls-verify-peer=false
   * such a URI still connects.
   */
  if (dir)
    r = load_x509_dir (h, t, dir);
  else {
    debug (h, "TLS: no certificates directory with a ca-cert.pem: "
           "using the system's certificate authorities");
    err = gnutls_certificate_set_x509_system_trust (t->xcred);
    if (err < 0)
      r = gnutls_error (err, "gnutls_certificate_set_x509_system_trust");
    else
      r = 0;
  }
  free (dir);
  if (r == -1)
    return -1;
  if (nbd_internal_tls_set_priority (h, t->session, false) == -1)
    return -1;
  err = gnutls_credentials_set (t->session, GNUTLS_CRD_CERTIFICATE,
                                t->xcred);
  if (err < 0)
    return gnutls_error (err, "gnutls_credentials_set");
  /* The chain is checked during the handshake; the name too if known. */
  if (h->tls_verify_peer)
    gnutls_session_set_verify_cert (t->session, hostname, 0);
  /* Server name indication carries DNS names only, never addresses. */
  if (hostname && *hostname && !is_address (hostname))
    (void) gnutls_server_name_set (t->session, GNUTLS_NAME_DNS, hostname,
                                   strlen (hostname));
  return 0;
}

/* The server accepted NBD_OPT_STARTTLS: put a GnuTLS session over the
 * plain socket.  The handshake is driven by nbd_internal_tls_handshake.
 */
int
nbd_internal_tls_start (struct nbd_handle *h)
{
  struct tls_socket *t = calloc (1, sizeof *t);
  int err, r;

  if (t == NULL) {
    set_error (errno, "calloc");
    return -1;
  }
  err = gnutls_init (&t->session,
                     GNUTLS_CLIENT | GNUTLS_NONBLOCK | GNUTLS_NO_SIGNAL);
  if (err < 0) {
    free (t);
    return gnutls_error (err, "gnutls_init");
  }
  t->base.ops = &tls_ops;
  t->base.fd = h->sock->ops->get_fd (h->sock);
  t->plain = h->sock;
  /* An fd transport, not callbacks, so GnuTLS may hand it to kTLS. */
  gnutls_transport_set_int (t->session, t->base.fd);
  r = h->tls_psk_file ? setup_psk (h, t) : setup_x509 (h, t);
  h->sock = &t->base;           /* from now on closing frees t */
  h->recv_drained = false;
  return r;
}

static void
debug_ktls (struct nbd_handle *h, gnutls_session_t session)
{
  int k = gnutls_transport_is_ktls_enabled (session);
  char *desc = gnutls_session_get_desc (session);

  debug (h, "TLS handshake done: %s, kTLS %s", desc ? desc : "?",
         k == GNUTLS_KTLS_DUPLEX ? "enabled" :
         k == GNUTLS_KTLS_SEND ? "send only" :
         k == GNUTLS_KTLS_RECV ? "receive only" : "not in use");
  gnutls_free (desc);
  nbd_internal_tls_debug_group (h, session);
}

/* Why the handshake failed, as one error. */
static void
handshake_error (struct tls_socket *t, int err)
{
  gnutls_datum_t out = { NULL, 0 };
  unsigned status;

  if (err == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
    status = gnutls_session_get_verify_cert_status (t->session);
    if (gnutls_certificate_verification_status_print
        (status, GNUTLS_CRT_X509, &out, 0) == 0 && out.data != NULL) {
      /* GnuTLS ends each sentence with a space, the last one too. */
      size_t len = strlen ((char *) out.data);

      while (len > 0 && out.data[len - 1] == ' ')
        out.data[--len] = '\0';
      set_error (EPROTO, "TLS handshake: server certificate: %s",
                 (char *) out.data);
      gnutls_free (out.data);
      return;
    }
  }
  set_error (errno_of_gnutls (err), "TLS handshake: %s",
             gnutls_strerror (err));
}

/* One step of the handshake.  Returns 0 done, 1 wait to read, 2 wait
 * to write, -1 failed (error set).
 */
int
nbd_internal_tls_handshake (struct nbd_handle *h)
{
  struct tls_socket *t = (struct tls_socket *) h->sock;
  int err;

  for (;;) {
    err = gnutls_handshake (t->session);
    if (err == 0) {
      t->handshake_done = true;
      if (h->debug)
        debug_ktls (h, t->session);
      if (gnutls_transport_is_ktls_enabled (t->session) & GNUTLS_KTLS_RECV)
        return 0;
      return use_read_ahead (t);
    }
    if (err == GNUTLS_E_AGAIN || err == GNUTLS_E_INTERRUPTED)
      return gnutls_record_get_direction (t->session) ? 2 : 1;
    if (gnutls_error_is_fatal (err)) {
      handshake_error (t, err);
      return -1;
    }
  }
}

#else /* !HAVE_GNUTLS */

int
nbd_internal_tls_start (struct nbd_handle *h)
{
  set_error (ENOTSUP, "libnbd was compiled without TLS support");
  return -1;
}

int
nbd_internal_tls_handshake (struct nbd_handle *h)
{
  set_error (ENOTSUP, "libnbd was compiled without TLS support");
  return -1;
}

#endif /* !HAVE_GNUTLS */
