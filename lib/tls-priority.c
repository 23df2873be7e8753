/* tls-priority.c: the GnuTLS priority string of each TLS session:
 * the one the program (or a URI) set, used exactly as given, else our
 * default.
 *
 * The default is TLS_PRIORITY (configure --with-tls-priority, NORMAL
 * unless given), as in libnbd.  GnuTLS's NORMAL order has
 * ChaCha20-Poly1305 second, after AES-256-GCM but ahead of
 * AES-128-GCM.  A TLS 1.3 session with a pre-shared key can only use a
 * SHA-256 suite (GnuTLS 3.7 computes the binder of an external key
 * with SHA-256), so AES-256-GCM-SHA384 is out and such a session gets
 * ChaCha20; an X.509 session gets it too whenever the server lacks
 * AES-256-GCM.  On a CPU with AES instructions AES-GCM is several
 * times faster than ChaCha20 (here 3 GB/s against 0.45), so there our
 * default is NORMAL with the AES-GCM ciphers moved ahead of ChaCha20.
 * Nothing is added: the ciphers are NORMAL's, reordered; and where
 * the system's default priorities are not NORMAL (an administrator's
 * or a distribution's choice) NORMAL stays as it is.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>

#ifdef HAVE_GNUTLS
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#endif

#include "internal.h"

#ifdef HAVE_GNUTLS

/* Key exchanges with pre-shared keys are not in the default priorities. */
#define PSK_KX ":+ECDHE-PSK:+DHE-PSK:+PSK"

/* One TLS record of plaintext, encrypted a few times with each cipher. */
#define PROBE_SIZE 16384
#define PROBE_ROUNDS 5

static bool aes_faster;          /* AES-128-GCM beat ChaCha20 here */
static unsigned aes_mbs, chacha_mbs; /* what the probe saw, for debug */

static uint64_t
cpu_ns (void)
{
  struct timespec ts = { 0, 0 };

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * UINT64_C (1000000000) + ts.tv_nsec;
}

/* The best of a few encryptions of BUF by CIPHER, in ns, or 0 if
 * GnuTLS cannot do it.
 */
static uint64_t
best_encrypt_ns (gnutls_cipher_algorithm_t cipher, char *buf)
{
  unsigned char key_bytes[32] = { 0 }, nonce[12] = { 0 }, out[16];
  gnutls_datum_t key = { key_bytes, gnutls_cipher_get_key_size (cipher) };
  gnutls_aead_cipher_hd_t hd;
  uint64_t best = 0;
  giovec_t iov = { buf, PROBE_SIZE };
  size_t tag_size = sizeof out;
  int i;

  if (key.size > sizeof key_bytes ||
      gnutls_aead_cipher_init (&hd, cipher, &key) < 0)
    return 0;
  /* Round 0 warms the caches and is not counted. */
  for (i = 0; i <= PROBE_ROUNDS; ++i) {
    uint64_t t = cpu_ns (), d;

    nonce[0] = i;
    if (gnutls_aead_cipher_encryptv2 (hd, nonce, sizeof nonce, NULL, 0,
                                      &iov, 1, out, &tag_size) < 0) {
      best = 0;
      break;
    }
    d = cpu_ns () - t;
    if (i > 0 && (best == 0 || d < best))
      best = d ? d : 1;
  }
  gnutls_aead_cipher_deinit (hd);
  return best;
}

static unsigned
mb_per_s (uint64_t ns)
{
  return ns ? PROBE_SIZE * UINT64_C (1000) / ns : 0;
}

/* How to tell a CPU that accelerates AES: by timing both ciphers once
 * per process, not by CPU feature bits.  What matters is what GnuTLS
 * runs, and a feature bit does not say that: GnuTLS may be built
 * without its assembler code, or told to ignore a feature
 * (GNUTLS_CPUID_OVERRIDE), and each architecture has its own bits.  A
 * record's worth of each, best of five, costs well under a
 * millisecond of CPU; thread CPU time keeps a busy machine's other
 * work out of the comparison.
 */
static void
probe (void)
{
  char *buf = calloc (1, PROBE_SIZE);
  uint64_t aes, chacha;

  if (buf == NULL)
    return;                     /* GnuTLS's order, as before */
  aes = best_encrypt_ns (GNUTLS_CIPHER_AES_128_GCM, buf);
  chacha = best_encrypt_ns (GNUTLS_CIPHER_CHACHA20_POLY1305, buf);
  free (buf);
  aes_mbs = mb_per_s (aes);
  chacha_mbs = mb_per_s (chacha);
  aes_faster = aes && chacha && aes < chacha;
}

static bool
is_aes_gcm (unsigned cipher)
{
  return cipher == GNUTLS_CIPHER_AES_128_GCM ||
    cipher == GNUTLS_CIPHER_AES_256_GCM;
}

/* A copy of the ciphers of priority string PRIO (NULL: the default)
 * in *LIST, and their number; 0 on failure.
 */
static int
ciphers_of (const char *prio, unsigned **list)
{
  gnutls_priority_t p;
  const unsigned *ciphers;
  int n;

  *list = NULL;
  if (gnutls_priority_init2 (&p, prio, NULL, 0) < 0)
    return 0;
  n = gnutls_priority_cipher_list (p, &ciphers);
  if (n > 0 && (*list = malloc (n * sizeof **list)) != NULL)
    memcpy (*list, ciphers, n * sizeof **list);
  gnutls_priority_deinit (p);
  return *list ? n : 0;
}

static void
append_name (char *s, unsigned cipher)
{
  strcat (s, ":+");
  strcat (s, gnutls_cipher_get_name (cipher));
}

/* "-CIPHER-ALL:+A:+B..." naming the N ciphers of LIST with every
 * AES-GCM cipher that follows ChaCha20 moved to just before it, the
 * rest in their order; NULL if that would change nothing (or on
 * ENOMEM).
 */
static char *
reorder (const unsigned *list, int n)
{
  int chacha = -1, i;
  bool moved = false;
  size_t len = sizeof "-CIPHER-ALL:";
  char *s;

  for (i = 0; i < n; ++i) {
    if (list[i] == GNUTLS_CIPHER_CHACHA20_POLY1305 && chacha < 0)
      chacha = i;
    else if (chacha >= 0 && is_aes_gcm (list[i]))
      moved = true;
    len += strlen (gnutls_cipher_get_name (list[i])) + 2;
  }
  if (!moved || (s = malloc (len)) == NULL)
    return NULL;
  strcpy (s, "-CIPHER-ALL");
  for (i = 0; i < chacha; ++i)          /* those ahead of ChaCha20 */
    append_name (s, list[i]);
  for (i = chacha; i < n; ++i)          /* the AES-GCM ones behind it */
    if (is_aes_gcm (list[i]))
      append_name (s, list[i]);
  for (i = chacha; i < n; ++i)          /* ChaCha20 and the rest */
    if (!is_aes_gcm (list[i]))
      append_name (s, list[i]);
  return s;
}

static pthread_once_t decide_once = PTHREAD_ONCE_INIT;
static char *order_default;     /* NORMAL reordered, or NULL */
static const char *order_kept;  /* why not, for debug, or NULL */

/* Once per process: whether to reorder, and the string that does it.
 * The default priorities are the process's (GnuTLS reads its
 * configuration once), so neither changes from session to session.
 */
static void
decide (void)
{
  unsigned *def, *normal;
  int ndef, nnormal;
  char *order;

  if (strcmp (TLS_PRIORITY, "NORMAL") != 0) {
    order_kept = "the build's default (--with-tls-priority) is kept";
    return;
  }
  probe ();
  if (!aes_faster) {
    order_kept = "AES-GCM is not faster here, GnuTLS's cipher order kept";
    return;
  }
  ndef = ciphers_of (NULL, &def);
  nnormal = ciphers_of ("NORMAL", &normal);
  /* A default that is not GnuTLS's NORMAL was chosen by someone (an
   * administrator's default-priority-string, a distribution's policy):
   * NORMAL's order then stands too.  Ciphers disabled system-wide are
   * missing from both lists alike, and stay disabled: we only reorder.
   */
  if (ndef == 0 || ndef != nnormal ||
      memcmp (def, normal, ndef * sizeof *def) != 0)
    order_kept = "the default priorities are not GnuTLS's NORMAL, "
      "NORMAL's cipher order kept";
  else if ((order = reorder (normal, nnormal)) != NULL) {
    if (asprintf (&order_default, "NORMAL:%s", order) == -1)
      order_default = NULL;
    free (order);
  }
  free (def);
  free (normal);
}

/* The default priority string, owned by this file. */
static const char *
default_priority (void)
{
  (void) pthread_once (&decide_once, decide);
  return order_default ? order_default : TLS_PRIORITY;
}

/* Set PRIO on SESSION, with the PSK key exchanges appended if PSK, as
 * libnbd does.  Returns 0, or -1 with the error set.
 */
static int
set_direct (struct gnutls_session_int *session, const char *prio, bool psk)
{
  char *s = NULL;
  int err;

  if (psk && asprintf (&s, "%s%s", prio, PSK_KX) == -1) {
    set_error (errno, "asprintf");
    return -1;
  }
  err = gnutls_priority_set_direct (session, s ? s : prio, NULL);
  if (err < 0)
    set_error (EINVAL, "gnutls_priority_set_direct: %s: %s",
               s ? s : prio, gnutls_strerror (err));
  free (s);
  return err < 0 ? -1 : 0;
}

/* Set SESSION's priorities: the handle's string, else the default.
 * Returns 0, or -1 with the error set.
 */
int
nbd_internal_tls_set_priority (struct nbd_handle *h,
                               struct gnutls_session_int *session, bool psk)
{
  const char *prio;

  if (h->tls_priority) {
    debug (h, "TLS priority: %s%s (set for this handle)",
           h->tls_priority, psk ? PSK_KX : "");
    return set_direct (session, h->tls_priority, psk);
  }
  prio = default_priority ();
  debug (h, "TLS cipher speed here (measured once per process): "
         "AES-128-GCM %u MB/s, ChaCha20-Poly1305 %u MB/s",
         aes_mbs, chacha_mbs);
  if (order_kept)
    debug (h, "TLS priority: %s", order_kept);
  if (prio == order_default) {
    debug (h, "TLS priority: the default with AES-GCM first, %s%s",
           prio, psk ? PSK_KX : "");
    if (set_direct (session, prio, psk) == 0)
      return 0;
    /* Never fail a session for the sake of speed. */
    debug (h, "TLS priority: that failed, using %s", TLS_PRIORITY);
  }
  return set_direct (session, TLS_PRIORITY, psk);
}

#else /* !HAVE_GNUTLS */

static const char *
default_priority (void)
{
  return TLS_PRIORITY;
}

#endif /* !HAVE_GNUTLS */

/* Used exactly as given, even "": GnuTLS judges it when TLS starts. */
int
nbd_unlocked_set_tls_priority (struct nbd_handle *h, const char *priority)
{
  char *copy = strdup (priority);

  if (copy == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  free (h->tls_priority);
  h->tls_priority = copy;
  return 0;
}

char *
nbd_unlocked_get_tls_priority (struct nbd_handle *h)
{
  char *s = strdup (h->tls_priority ? h->tls_priority
                    : default_priority ());

  if (s == NULL)
    set_error (errno, "strdup");
  return s;
}
