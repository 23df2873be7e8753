/* tls-groups.c: the key exchange groups of a TLS session, and which of
 * them are post-quantum.
 *
 * As in libnbd 1.24, the groups offered are those of the priorities in
 * use, nothing added.  Where the GnuTLS at run time knows a hybrid
 * post-quantum group (X25519-MLKEM768 and the like: a recent GnuTLS
 * 3.8 built with liboqs or leancrypto) and the default priorities, the
 * system's policy or the program's priority string offer it, a server
 * that prefers it gets it.  GnuTLS 3.7 knows none, so only classical
 * groups are ever negotiated there.  The debug messages say what this
 * GnuTLS knows and what each session got.
 */
#include <config.h>

#ifdef HAVE_GNUTLS

#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <gnutls/gnutls.h>

#include "internal.h"

/* Whether group NAME is post-quantum: ML-KEM alone or in a hybrid
 * (X25519-MLKEM768, SECP384R1-MLKEM1024), or the draft Kyber hybrids
 * of GnuTLS 3.8.4 to 3.8.7.
 */
static bool
name_is_pq (const char *name)
{
  return name && (strstr (name, "MLKEM") || strstr (name, "KYBER"));
}

static pthread_once_t known_once = PTHREAD_ONCE_INIT;
static char known[256];          /* "A, B", "" for none */

/* Once per process: the post-quantum groups GnuTLS lists as supported
 * (a group it was built without, or whose algorithms it cannot load,
 * is not listed).
 */
static void
find_known (void)
{
  const gnutls_group_t *g;
  const char *name;

  for (g = gnutls_group_list (); g && *g; ++g) {
    name = gnutls_group_get_name (*g);
    if (!name_is_pq (name) ||
        strlen (known) + strlen (name) + 3 > sizeof known)
      continue;
    if (known[0])
      strcat (known, ", ");
    strcat (known, name);
  }
}

/* The post-quantum groups this GnuTLS knows, as "A, B", or "" if
 * none.  Never NULL; not to be freed.
 */
const char *
nbd_internal_tls_pq_groups_known (void)
{
  (void) pthread_once (&known_once, find_known);
  return known;
}

/* After the handshake: say which group the session's key exchange
 * used and whether it is post-quantum.
 */
void
nbd_internal_tls_debug_group (struct nbd_handle *h,
                              struct gnutls_session_int *session)
{
  const char *name = gnutls_group_get_name (gnutls_group_get (session));
  const char *pq = nbd_internal_tls_pq_groups_known ();

  if (name == NULL)
    debug (h, "TLS key exchange: no group (a pre-shared key alone)");
  else if (name_is_pq (name))
    debug (h, "TLS key exchange: group %s, post-quantum", name);
  else if (pq[0] == '\0')
    debug (h, "TLS key exchange: group %s, not post-quantum: GnuTLS %s "
           "here knows no post-quantum group", name,
           gnutls_check_version (NULL));
  else
    debug (h, "TLS key exchange: group %s, not post-quantum: GnuTLS "
           "here knows %s, which this session's priorities or the "
           "server did not choose", name, pq);
}

#endif /* HAVE_GNUTLS */
