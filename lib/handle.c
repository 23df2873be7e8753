/* handle.c: creating and closing handles, and their settings. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "internal.h"

/* Default handle names are nbd1, nbd2, ... */
static unsigned long next_handle_number = 1;

/* The handle lock is error-checking: a callback runs with it held, and
 * a call from there on the same handle must fail (EDEADLK), not wait
 * on its own thread for ever.
 */
static int
init_handle_lock (pthread_mutex_t *lock)
{
  pthread_mutexattr_t attr;
  int r;

  pthread_mutexattr_init (&attr);
  pthread_mutexattr_settype (&attr, PTHREAD_MUTEX_ERRORCHECK);
  r = pthread_mutex_init (lock, &attr);
  pthread_mutexattr_destroy (&attr);
  if (r != 0) {
    set_error (r, "pthread_mutex_init");
    return -1;
  }
  return 0;
}

struct nbd_handle *
nbd_create (void)
{
  struct nbd_handle *h;
  const char *s;

  nbd_internal_set_error_context ("nbd_create");
  h = calloc (1, sizeof *h);
  if (h == NULL) {
    set_error (errno, "calloc");
    goto error1;
  }
  if (asprintf (&h->hname, "nbd%lu",
                __atomic_fetch_add (&next_handle_number, 1,
                                    __ATOMIC_SEQ_CST)) == -1) {
    h->hname = NULL;
    set_error (errno, "asprintf");
    goto error2;
  }
  h->export_name = strdup ("");
  h->ahead = malloc (RECV_AHEAD_SIZE);
  h->gather = malloc (SEND_GATHER_SIZE);
  if (h->export_name == NULL || h->ahead == NULL || h->gather == NULL) {
    set_error (errno, "malloc");
    goto error2;
  }
  h->tls_verify_peer = true;
  h->request_eh = true;
  h->request_sr = true;
  h->request_meta = true;
  h->request_block_size = true;
  h->pread_initialize = true;
  h->gflags = LIBNBD_HANDSHAKE_FLAG_MASK;
  h->strict = LIBNBD_STRICT_MASK;
  h->uri_allow_transports = LIBNBD_ALLOW_TRANSPORT_MASK;
  h->uri_allow_tls = LIBNBD_TLS_ALLOW;
  /* LIBNBD_NO_BATCH=1: send each request as it comes (benchmarks). */
  s = getenv ("LIBNBD_NO_BATCH");
  h->batching = !(s && strcmp (s, "1") == 0);
  /* LIBNBD_NO_LOWAT=1: leave TCP's SO_RCVLOWAT alone (benchmarks). */
  s = getenv ("LIBNBD_NO_LOWAT");
  h->move_lowat = !(s && strcmp (s, "1") == 0);
  s = getenv ("LIBNBD_DEBUG");
  h->debug = s && strcmp (s, "1") == 0;
  h->state = h->public_state = STATE_CREATED_START;
  if (init_handle_lock (&h->lock) == -1)
    goto error2;
  pthread_cond_init (&h->wait_cond, NULL);
  h->wake_fd = -1;
  debug (h, "opening handle");
  return h;

 error2:
  free (h->gather);
  free (h->ahead);
  free (h->export_name);
  free (h->hname);
  free (h);
 error1:
  return NULL;
}

/* Reap the subprocess so it does not linger as a zombie.  A server
 * on a socketpair exits when it sees end of file; one started by
 * socket activation keeps listening, so it is told to stop.
 */
static void
reap_subprocess (struct nbd_handle *h)
{
  if (h->pid > 0) {
    int status;
    if (h->sact_sockpath)
      kill (h->pid, SIGTERM);
    while (waitpid (h->pid, &status, 0) == -1 && errno == EINTR)
      ;
    h->pid = 0;
  }
}

void
nbd_close (struct nbd_handle *h)
{
  nbd_internal_set_error_context ("nbd_close");
  if (h == NULL)
    return;
  /* From a callback of this handle: freeing it would pull it from
   * under the call running that callback.  Held to the end, the lock
   * makes the callbacks run below fail their calls on it.
   */
  if (pthread_mutex_lock (&h->lock) != 0) {
    nbd_internal_refuse_nested_call ();
    return;
  }
  debug (h, "closing handle");
  /* The debug callback goes first, as in libnbd, then the closures of
   * an option still waiting for its reply, freed without running its
   * completion (nothing may call back into a program tearing down).
   * Commands not retired yet get their completion callback with an
   * error, then are freed with their closures.
   */
  FREE_CALLBACK (h->debug_callback);
  nbd_internal_opt_free (h);
  nbd_internal_free_all_commands (h);
  nbd_internal_close_socket (h);
  reap_subprocess (h);
  if (h->sact_sockpath)
    unlink (h->sact_sockpath);
  if (h->sact_tmpdir)
    rmdir (h->sact_tmpdir);
  if (h->result)
    freeaddrinfo (h->result);
  nbd_internal_string_vector_free (&h->request_meta_contexts);
  nbd_internal_string_vector_free (&h->opt_queries);
  nbd_internal_string_vector_free (&h->argv);
  nbd_internal_meta_vector_clear (&h->meta_contexts);
  free (h->sact_sockpath);
  free (h->sact_tmpdir);
  free (h->hostname);
  free (h->port);
  free (h->uri);
  free (h->opt_payload);
  free (h->wscratch);
  free (h->chunk_payload);
  free (h->canonical_name);
  free (h->description);
  free (h->socket_activation_name);
  free (h->tls_certificates);
  free (h->tls_username);
  free (h->tls_hostname);
  free (h->tls_psk_file);
  free (h->tls_priority);
  free (h->export_name);
  free (h->hname);
  free (h->ahead);
  free (h->gather);
  if (h->wake_fd >= 0)
    close (h->wake_fd);
  pthread_cond_destroy (&h->wait_cond);
  pthread_mutex_unlock (&h->lock);
  pthread_mutex_destroy (&h->lock);
  free (h);
}

/* Replace *FIELD by a copy of S (NULL stays NULL). */
static int
set_string (char **field, const char *s)
{
  char *copy = NULL;

  if (s && (copy = strdup (s)) == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  free (*field);
  *field = copy;
  return 0;
}

/* A copy of S for the caller to free. */
static char *
get_string (const char *s)
{
  char *r = strdup (s ? s : "");

  if (r == NULL)
    set_error (errno, "strdup");
  return r;
}

int
nbd_unlocked_set_handle_name (struct nbd_handle *h, const char *name)
{
  return set_string (&h->hname, name);
}

char *
nbd_unlocked_get_handle_name (struct nbd_handle *h)
{
  return get_string (h->hname);
}

/* The private data calls skip the handle lock, so two threads may set
 * it at once: the exchange is atomic, so each value stored comes back
 * as "old" to exactly one caller (who may then free it).
 */
uintptr_t
nbd_unlocked_set_private_data (struct nbd_handle *h, uintptr_t data)
{
  return __atomic_exchange_n (&h->private_data, data, __ATOMIC_ACQ_REL);
}

uintptr_t
nbd_unlocked_get_private_data (struct nbd_handle *h)
{
  return __atomic_load_n (&h->private_data, __ATOMIC_ACQUIRE);
}

int
nbd_unlocked_set_export_name (struct nbd_handle *h, const char *name)
{
  if (strlen (name) > NBD_MAX_STRING) {
    set_error (ENAMETOOLONG, "export name too long for NBD protocol");
    return -1;
  }
  if (strcmp (name, h->export_name) == 0)
    return 0;                   /* the same export: nothing changes */
  if (set_string (&h->export_name, name) == -1)
    return -1;
  /* What the server said was about the previous export. */
  nbd_internal_reset_size_and_flags (h);
  h->meta_valid = false;
  return 0;
}

char *
nbd_unlocked_get_export_name (struct nbd_handle *h)
{
  return get_string (h->export_name);
}

/* The boolean settings: each a field set and read as it is. */
#define BOOL_SETTING(setter, getter, field)                             \
  int nbd_unlocked_##setter (struct nbd_handle *h, bool v)              \
  { h->field = v; return 0; }                                           \
  int nbd_unlocked_##getter (struct nbd_handle *h)                      \
  { return h->field; }

BOOL_SETTING (set_request_structured_replies,
              get_request_structured_replies, request_sr)
BOOL_SETTING (set_request_extended_headers,
              get_request_extended_headers, request_eh)
BOOL_SETTING (set_request_meta_context, get_request_meta_context,
              request_meta)
BOOL_SETTING (set_request_block_size, get_request_block_size,
              request_block_size)
BOOL_SETTING (set_full_info, get_full_info, full_info)
BOOL_SETTING (set_pread_initialize, get_pread_initialize, pread_initialize)
BOOL_SETTING (set_opt_mode, get_opt_mode, opt_mode)
BOOL_SETTING (set_tls_verify_peer, get_tls_verify_peer, tls_verify_peer)

int
nbd_unlocked_set_handshake_flags (struct nbd_handle *h, uint32_t flags)
{
  h->gflags = flags;
  return 0;
}

uint32_t
nbd_unlocked_get_handshake_flags (struct nbd_handle *h)
{
  return h->gflags;
}

int
nbd_unlocked_set_strict_mode (struct nbd_handle *h, uint32_t flags)
{
  h->strict = flags;
  return 0;
}

uint32_t
nbd_unlocked_get_strict_mode (struct nbd_handle *h)
{
  return h->strict;
}

/* Without GnuTLS only LIBNBD_TLS_DISABLE can be met. */
int
nbd_unlocked_set_tls (struct nbd_handle *h, int tls)
{
  if (tls == LIBNBD_TLS_REQUIRE && !nbd_unlocked_supports_tls (h)) {
    set_error (ENOTSUP, "libnbd was compiled without TLS support");
    return -1;
  }
  h->tls = tls;
  return 0;
}

int
nbd_unlocked_get_tls (struct nbd_handle *h)
{
  return h->tls;
}

int
nbd_unlocked_set_tls_certificates (struct nbd_handle *h, const char *dir)
{
  return set_string (&h->tls_certificates, dir);
}

int
nbd_unlocked_set_tls_username (struct nbd_handle *h, const char *name)
{
  return set_string (&h->tls_username, name);
}

/* The login name from getlogin_r, growing the buffer as it asks.
 * Without a controlling terminal it fails (ENOTTY or ENXIO), and so
 * does the caller, as in libnbd.
 */
static char *
login_name (void)
{
  size_t len = 32;
  char *buf = NULL, *bigger;
  int err;

  for (;;) {
    bigger = realloc (buf, len);
    if (bigger == NULL) {
      set_error (errno, "realloc");
      break;
    }
    buf = bigger;
    err = getlogin_r (buf, len);
    if (err == -1)              /* older C libraries report in errno */
      err = errno;
    if (err == 0)
      return buf;
    if (err != ERANGE || len >= 65536) {
      set_error (err, "getlogin_r");
      break;
    }
    len *= 2;
  }
  free (buf);
  return NULL;
}

char *
nbd_unlocked_get_tls_username (struct nbd_handle *h)
{
  const char *logname = getenv ("LOGNAME");

  if (h->tls_username)
    return get_string (h->tls_username);
  /* libnbd's default: $LOGNAME (which may be set to override), else
   * the login name.  Not $USER.
   */
  if (logname)
    return get_string (logname);
  return login_name ();
}

int
nbd_unlocked_set_tls_hostname (struct nbd_handle *h, const char *name)
{
  return set_string (&h->tls_hostname, name);
}

char *
nbd_unlocked_get_tls_hostname (struct nbd_handle *h)
{
  return get_string (h->tls_hostname ? h->tls_hostname : h->hostname);
}

int
nbd_unlocked_set_tls_psk_file (struct nbd_handle *h, const char *file)
{
  return set_string (&h->tls_psk_file, file);
}

int
nbd_unlocked_add_meta_context (struct nbd_handle *h, const char *name)
{
  char *copy = strdup (name);

  if (copy == NULL ||
      nbd_internal_string_vector_append (&h->request_meta_contexts,
                                         copy) == -1) {
    set_error (errno, "strdup");
    free (copy);
    return -1;
  }
  return 0;
}

ssize_t
nbd_unlocked_get_nr_meta_contexts (struct nbd_handle *h)
{
  return h->request_meta_contexts.len;
}

char *
nbd_unlocked_get_meta_context (struct nbd_handle *h, size_t i)
{
  if (i >= h->request_meta_contexts.len) {
    set_error (EINVAL, "meta context request out of range");
    return NULL;
  }
  return get_string (h->request_meta_contexts.ptr[i]);
}

int
nbd_unlocked_clear_meta_contexts (struct nbd_handle *h)
{
  nbd_internal_string_vector_free (&h->request_meta_contexts);
  return 0;
}

/* Counters other threads update: atomic loads (see STAT_ADD). */
uint64_t nbd_unlocked_stats_bytes_sent (struct nbd_handle *h)
{ return STAT_GET (h, bytes_sent); }
uint64_t nbd_unlocked_stats_chunks_sent (struct nbd_handle *h)
{ return STAT_GET (h, chunks_sent); }
uint64_t nbd_unlocked_stats_bytes_received (struct nbd_handle *h)
{ return STAT_GET (h, bytes_received); }
uint64_t nbd_unlocked_stats_chunks_received (struct nbd_handle *h)
{ return STAT_GET (h, chunks_received); }

const char *
nbd_unlocked_get_package_name (struct nbd_handle *h)
{
  return "libnbd";
}

const char *
nbd_unlocked_get_version (struct nbd_handle *h)
{
  return LIBNBD_PACKAGE_VERSION;
}

/* ./configure --with-extra=STRING, "" by default. */
const char *
nbd_unlocked_get_version_extra (struct nbd_handle *h)
{
  return LIBNBD_VERSION_EXTRA;
}

/* The bytes of S with its NUL, 0 for NULL. */
static size_t
string_size (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

static size_t
strings_size (const struct string_vector *v)
{
  size_t i, n = v->cap * sizeof *v->ptr;

  for (i = 0; i < v->len; ++i)
    n += string_size (v->ptr[i]);
  return n;
}

/* The commands of one list, with what the library owns of each. */
static size_t
commands_size (const struct command *c)
{
  size_t n = 0;

  for (; c; c = c->next)
    n += sizeof *c + c->filter_len + c->seen.cap * sizeof *c->seen.ptr;
  return n;
}

/* An estimate, for garbage collectors: the handle, its buffers, the
 * strings it owns and its commands.  Buffers of the caller are not
 * counted, nor what GnuTLS holds, nor the short-lived option and
 * chunk payloads.
 */
ssize_t
nbd_unlocked_get_handle_size (struct nbd_handle *h)
{
  const char *const strings[] = {
    h->hname, h->export_name, h->tls_certificates, h->tls_username,
    h->tls_hostname, h->tls_psk_file, h->tls_priority,
    h->socket_activation_name, h->canonical_name, h->description,
    h->hostname, h->port, h->sact_tmpdir, h->sact_sockpath, h->uri,
  };
  size_t i, n = sizeof *h + RECV_AHEAD_SIZE + SEND_GATHER_SIZE;

  for (i = 0; i < sizeof strings / sizeof strings[0]; ++i)
    n += string_size (strings[i]);
  n += strings_size (&h->request_meta_contexts);
  n += strings_size (&h->opt_queries);
  n += strings_size (&h->argv);
  n += h->meta_contexts.cap * sizeof *h->meta_contexts.ptr;
  for (i = 0; i < h->meta_contexts.len; ++i)
    n += string_size (h->meta_contexts.ptr[i].name);
  n += commands_size (h->cmds_to_issue) + commands_size (h->cmds_sending) +
    commands_size (h->cmds_in_flight) + commands_size (h->cmds_done);
  return n;
}

int
nbd_unlocked_supports_tls (struct nbd_handle *h)
{
#ifdef HAVE_GNUTLS
  return 1;
#else
  return 0;
#endif
}

int
nbd_unlocked_supports_vsock (struct nbd_handle *h)
{
#ifdef AF_VSOCK
  return 1;
#else
  return 0;
#endif
}
