/* uri.c: NBD URIs: parse one and connect, rebuild one from a handle. */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netdb.h>
#ifdef HAVE_LINUX_VM_SOCKETS_H
#include <linux/vm_sockets.h>
#endif

#include <libxml/uri.h>

#include "internal.h"

#define NBD_DEFAULT_PORT 10809
#define SSH_DEFAULT_PORT 22
#define VSOCK_HOST_CID 2        /* VMADDR_CID_HOST: the hypervisor */

/* The schemes we recognise. */
struct scheme {
  const char *name;
  uint32_t transport;           /* LIBNBD_ALLOW_TRANSPORT_* */
  bool tls;
};

static const struct scheme schemes[] = {
  { "nbd", LIBNBD_ALLOW_TRANSPORT_TCP, false },
  { "nbds", LIBNBD_ALLOW_TRANSPORT_TCP, true },
  { "nbd+unix", LIBNBD_ALLOW_TRANSPORT_UNIX, false },
  { "nbds+unix", LIBNBD_ALLOW_TRANSPORT_UNIX, true },
  { "nbd+vsock", LIBNBD_ALLOW_TRANSPORT_VSOCK, false },
  { "nbds+vsock", LIBNBD_ALLOW_TRANSPORT_VSOCK, true },
  { "nbd+ssh", LIBNBD_ALLOW_TRANSPORT_SSH, false },
  { "nbds+ssh", LIBNBD_ALLOW_TRANSPORT_SSH, true },
};

/* One decoded query parameter, kept in URI order. */
struct param {
  char *name;
  char *value;                  /* "" for a bare "name" */
};

/* A URI taken apart and checked before anything touches the handle,
 * so a bad URI leaves the settings as they were.  The strings below
 * point into params.
 */
struct parsed_uri {
  xmlURIPtr uri;
  const struct scheme *scheme;
  struct param *params;
  size_t nparams;
  const char *socket;           /* the last socket=, or NULL */
  const char *tls_certificates; /* the last of each, or NULL */
  const char *tls_psk_file;
  const char *tls_hostname;
  int tls_verify_peer;          /* -1 absent, else 0 or 1 */
  char *host;                   /* TCP, SSH: without IPv6 brackets */
  char port[16];                /* TCP, SSH */
  uint32_t cid, vsock_port;     /* vsock */
};

/* Query parameters that set a string, and where it goes. */
static const struct {
  const char *name;
  size_t offset;                /* of a const char * in parsed_uri */
  bool local_file;              /* names a file of this machine */
} string_params[] = {
  { "socket", offsetof (struct parsed_uri, socket), false },
  { "tls-certificates", offsetof (struct parsed_uri, tls_certificates),
    true },
  { "tls-psk-file", offsetof (struct parsed_uri, tls_psk_file), true },
  { "tls-hostname", offsetof (struct parsed_uri, tls_hostname), false },
};

#define ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))

/* Scheme names compare without case (RFC 3986 section 3.1). */
static const struct scheme *
find_scheme (const char *name)
{
  size_t i;

  for (i = 0; i < ARRAY_SIZE (schemes); ++i)
    if (strcasecmp (schemes[i].name, name) == 0)
      return &schemes[i];
  return NULL;
}

/* Percent-decode LEN bytes of S into a new string, or NULL with errno
 * set.  The API takes C strings, so "%00" cannot be honoured: refuse it.
 */
static char *
unescape (const char *s, size_t len)
{
  char *t, *r;

  if (memmem (s, len, "%00", 3) != NULL) {
    errno = EINVAL;
    return NULL;
  }
  if (len == 0)                 /* libxml2 reads up to the NUL if len is 0 */
    return strdup ("");
  t = xmlURIUnescapeString (s, (int) len, NULL);
  if (t == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  r = strdup (t);               /* callers free () what we return */
  xmlFree (t);
  return r;
}

/* The booleans libnbd 1.22 accepts, as nbdkit does. */
static int
parse_bool (const char *s)
{
  static const char *const yes[] = { "1", "true", "t", "yes", "y", "on" };
  static const char *const no[] = { "0", "false", "f", "no", "n", "off" };
  size_t i;

  for (i = 0; i < ARRAY_SIZE (yes); ++i) {
    if (strcasecmp (s, yes[i]) == 0)
      return 1;
    if (strcasecmp (s, no[i]) == 0)
      return 0;
  }
  return -1;
}

/* Decode "name=value" or "name" (LEN bytes at S) onto the list.  An
 * item with an empty name ("=value") is dropped, as CGI does.
 */
static int
add_param (struct parsed_uri *p, const char *s, size_t len)
{
  const char *eq = memchr (s, '=', len);
  size_t nlen = eq ? (size_t) (eq - s) : len;
  struct param *list, *q;

  if (nlen == 0)
    return 0;
  list = realloc (p->params, (p->nparams + 1) * sizeof *list);
  if (list == NULL) {
    set_error (errno, "realloc");
    return -1;
  }
  p->params = list;
  q = &list[p->nparams];
  q->name = unescape (s, nlen);
  q->value = eq ? unescape (eq + 1, len - nlen - 1) : strdup ("");
  if (q->name == NULL || q->value == NULL) {
    set_error (errno, "cannot decode URI query parameter %.*s",
               (int) len, s);
    free (q->name);
    free (q->value);
    return -1;
  }
  p->nparams++;
  return 0;
}

/* Split the query as libnbd 1.22 does: at the next '&' if one remains
 * anywhere ahead, else at the next ';'.  So "a=1;b=2&c=3" is the two
 * items "a=1;b=2" and "c=3", while "a=1;b=2" is two items.
 */
static int
parse_query (struct parsed_uri *p, const char *q)
{
  const char *amp;
  size_t len;

  while (q && *q) {
    amp = strchr (q, '&');
    len = amp ? (size_t) (amp - q) : strcspn (q, ";");
    if (len > 0 && add_param (p, q, len) == -1)
      return -1;
    q += len;
    if (*q)
      q++;
  }
  return 0;
}

/* The scheme, and the scheme://[authority][/export][?query] form the
 * NBD URI specification asks for.
 */
static int
check_scheme (const char *raw, struct parsed_uri *p)
{
  const char *s = p->uri->scheme;

  if (s == NULL) {
    set_error (EINVAL, "NBD URI has no scheme: it should begin like "
               "nbd://, nbds:// or nbd+unix://");
    return -1;
  }
  p->scheme = find_scheme (s);
  if (p->scheme == NULL) {
    set_error (EINVAL, "unknown NBD URI scheme: %s", s);
    return -1;
  }
  if (strncmp (raw + strlen (s), "://", 3) != 0) {
    set_error (EINVAL, "NBD URI must begin with %s://", s);
    return -1;
  }
  return 0;
}

/* The syntax alone: what get_uri needs to read back a URI that was
 * accepted once.  P is the caller's to free, even on error.
 */
static int
parse_syntax (const char *raw, struct parsed_uri *p)
{
  memset (p, 0, sizeof *p);
  p->tls_verify_peer = -1;
  p->uri = xmlParseURI (raw);
  if (p->uri == NULL) {
    set_error (EINVAL, "unable to parse URI: %s", raw);
    return -1;
  }
  /* libnbd 1.22 cuts the string at a %00, so nbd://a%00.b/ would
   * reach host "a": we refuse it instead.  The fragment is unused.
   */
  if (memmem (raw, strcspn (raw, "#"), "%00", 3) != NULL) {
    set_error (EINVAL, "NBD URI must not contain %%00: %s", raw);
    return -1;
  }
  if (parse_query (p, p->uri->query_raw) == -1)
    return -1;
  return check_scheme (raw, p);
}

/* What nbd_set_uri_allow_transports and _tls forbid.  libnbd checks
 * these before anything else in the URI, so EPERM wins over EINVAL.
 */
static int
check_policy (struct nbd_handle *h, const struct parsed_uri *p)
{
  const char *s = p->uri->scheme;

  if ((h->uri_allow_transports & p->scheme->transport) == 0) {
    set_error (EPERM, "URI transport %s is not permitted "
               "(see nbd_set_uri_allow_transports)", s);
    return -1;
  }
  if ((p->scheme->tls && h->uri_allow_tls == LIBNBD_TLS_DISABLE) ||
      (!p->scheme->tls && h->uri_allow_tls == LIBNBD_TLS_REQUIRE)) {
    set_error (EPERM, "URI TLS setting %s is not permitted "
               "(see nbd_set_uri_allow_tls)", s);
    return -1;
  }
  return 0;
}

/* The last socket= wins.  +unix needs one, +ssh may have one. */
static int
check_socket (struct parsed_uri *p)
{
  const char *s = p->uri->scheme;
  size_t i;

  for (i = 0; i < p->nparams; ++i)
    if (strcasecmp (p->params[i].name, "socket") == 0)
      p->socket = p->params[i].value;
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_UNIX:
    if (p->socket == NULL || *p->socket == '\0') {
      set_error (EINVAL, "%s URI needs a socket parameter "
                 "(did you mean %s:///?socket=...?)", s, s);
      return -1;
    }
    return 0;
  case LIBNBD_ALLOW_TRANSPORT_SSH:
    return 0;
  default:
    if (p->socket) {
      set_error (EINVAL, "socket parameter is incompatible with %s: "
                 "(did you mean %s+unix:///?socket=...?)",
                 s, p->scheme->tls ? "nbds" : "nbd");
      return -1;
    }
    return 0;
  }
}

/* Check one query parameter and note where its value goes.  Unknown
 * names are ignored, as libnbd does; tls-username= is one of them
 * (libnbd takes the user from the authority only).
 */
static int
check_param (struct nbd_handle *h, struct parsed_uri *p,
             const struct param *q)
{
  size_t i;

  for (i = 0; i < ARRAY_SIZE (string_params); ++i) {
    if (strcasecmp (q->name, string_params[i].name) != 0)
      continue;
    if (string_params[i].local_file && !h->uri_allow_local_file) {
      set_error (EPERM, "local file access (%s) is not allowed, "
                 "call nbd_set_uri_allow_local_file to enable this",
                 string_params[i].name);
      return -1;
    }
    *(const char **) ((char *) p + string_params[i].offset) = q->value;
    return 0;
  }
  if (strcasecmp (q->name, "tls-verify-peer") == 0) {
    p->tls_verify_peer = parse_bool (q->value);
    if (p->tls_verify_peer == -1) {
      set_error (EINVAL, "tls-verify-peer=%s is not a boolean", q->value);
      return -1;
    }
  }
  else
    debug (h, "ignoring unknown NBD URI query parameter %s", q->name);
  return 0;
}

/* Port 0 or none means the default.  libxml2 reports -1 without an
 * authority.  libnbd 1.22 wraps a port above 65535: we refuse it.
 */
static int
set_port (struct parsed_uri *p, int dflt)
{
  int port = p->uri->port > 0 ? p->uri->port : dflt;

  if (port > 65535) {
    set_error (EINVAL, "NBD URI port %d is out of range", port);
    return -1;
  }
  snprintf (p->port, sizeof p->port, "%d", port);
  return 0;
}

/* Host and port for TCP.  libxml2 keeps the brackets of an IPv6
 * literal, which getaddrinfo does not want.
 */
static int
parse_tcp (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  size_t len = server ? strlen (server) : 0;

  if (set_port (p, NBD_DEFAULT_PORT) == -1)
    return -1;
  if (len == 0)
    p->host = strdup ("localhost");
  else if (len >= 2 && server[0] == '[' && server[len - 1] == ']')
    p->host = strndup (server + 1, len - 2);
  else
    p->host = strdup (server);
  if (p->host == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  return 0;
}

/* The server part of a vsock URI is the numeric CID. */
static int
parse_vsock (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  unsigned long long n;
  char *end;

  p->cid = VSOCK_HOST_CID;
  if (server && *server) {
    errno = 0;
    n = strtoull (server, &end, 10);
    if (errno || *end || end == server || *server == '-' || n > UINT32_MAX) {
      set_error (EINVAL, "cannot parse vsock CID from NBD URI: %s", server);
      return -1;
    }
    p->cid = n;
  }
  p->vsock_port = p->uri->port > 0 ? p->uri->port : NBD_DEFAULT_PORT;
  return 0;
}

/* Would ssh(1) or the remote nc(1) read S as an option?  libnbd 1.22.2
 * passes the host as it is, so nbd+ssh://-oProxyCommand=.../ runs a
 * command on the client.
 */
static bool
is_option (const char *s)
{
  return s && s[0] == '-';
}

/* Server and port for SSH.  The user stays the TLS user, as in libnbd:
 * ssh finds its own login name, so the user never reaches ssh; we
 * still refuse one that looks like an option, in case it ever does.
 */
static int
parse_ssh (struct parsed_uri *p)
{
  const char *server = p->uri->server;

  if (server == NULL || *server == '\0') {
    set_error (EINVAL, "SSH transport requires a server name");
    return -1;
  }
  if (is_option (server) || is_option (p->uri->user) ||
      is_option (p->socket)) {
    set_error (EINVAL, "NBD URI: an SSH server, user or socket must not "
               "begin with '-', where ssh or nc would read an option");
    return -1;
  }
  if (set_port (p, SSH_DEFAULT_PORT) == -1)
    return -1;
  p->host = strdup (server);
  if (p->host == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  return 0;
}

static int
parse_transport (struct parsed_uri *p)
{
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_TCP: return parse_tcp (p);
  case LIBNBD_ALLOW_TRANSPORT_VSOCK: return parse_vsock (p);
  case LIBNBD_ALLOW_TRANSPORT_SSH: return parse_ssh (p);
  default: return 0;
  }
}

static void
free_parsed (struct parsed_uri *p)
{
  size_t i;

  for (i = 0; i < p->nparams; ++i) {
    free (p->params[i].name);
    free (p->params[i].value);
  }
  free (p->params);
  free (p->host);
  xmlFreeURI (p->uri);
}

/* Parse and check RAW into P, which the caller frees even on error.
 * The checks run in libnbd 1.22's order, so the same URI fails with
 * the same errno: syntax, policy, socket=, TLS support, then each
 * query parameter in turn, then the transport's own fields.
 */
static int
parse (struct nbd_handle *h, const char *raw, struct parsed_uri *p)
{
  size_t i;

  if (parse_syntax (raw, p) == -1 ||
      check_policy (h, p) == -1 ||
      check_socket (p) == -1)
    return -1;
  if (p->scheme->tls && nbd_unlocked_supports_tls (h) != 1) {
    set_error (ENOTSUP, "%s: TLS is not supported in this build",
               p->uri->scheme);
    return -1;
  }
  for (i = 0; i < p->nparams; ++i)
    if (check_param (h, p, &p->params[i]) == -1)
      return -1;
  return parse_transport (p);
}

/* Hand the TLS settings of the URI to the handle. */
static int
apply_tls (struct nbd_handle *h, const struct parsed_uri *p)
{
  if (p->scheme->tls && nbd_unlocked_set_tls (h, LIBNBD_TLS_REQUIRE) == -1)
    return -1;
  if (p->tls_certificates &&
      nbd_unlocked_set_tls_certificates (h, p->tls_certificates) == -1)
    return -1;
  if (p->tls_psk_file &&
      nbd_unlocked_set_tls_psk_file (h, p->tls_psk_file) == -1)
    return -1;
  if (p->uri->user &&
      nbd_unlocked_set_tls_username (h, p->uri->user) == -1)
    return -1;
  if (p->tls_hostname &&
      nbd_unlocked_set_tls_hostname (h, p->tls_hostname) == -1)
    return -1;
  if (p->tls_verify_peer >= 0 &&
      nbd_unlocked_set_tls_verify_peer (h, p->tls_verify_peer) == -1)
    return -1;
  return 0;
}

/* The export name is the path without its leading '/', already
 * percent-decoded by libxml2.
 */
static const char *
export_name (const struct parsed_uri *p)
{
  const char *path = p->uri->path;

  if (path == NULL)
    return "";
  return path[0] == '/' ? path + 1 : path;
}

static int
save_uri (struct nbd_handle *h, const char *raw)
{
  char *copy = strdup (raw);

  if (copy == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  free (h->uri);
  h->uri = copy;
  return 0;
}

/* Is S safe in a remote shell command as it is? */
static bool
shell_safe (const char *s)
{
  return *s && strspn (s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                       "abcdefghijklmnopqrstuvwxyz0123456789"
                       "/._-+:@,=%") == strlen (s);
}

/* S in single quotes for the remote shell, which ssh hands the command
 * to as one string: a socket path is data there, never shell syntax.
 */
static char *
shell_quote (const char *s)
{
  size_t n = 3;
  const char *c;
  char *r, *o;

  for (c = s; *c; ++c)
    n += *c == '\'' ? 4 : 1;
  r = o = malloc (n);
  if (r == NULL)
    return NULL;
  *o++ = '\'';
  for (c = s; *c; ++c) {
    if (*c == '\'') {
      memcpy (o, "'\\''", 4);
      o += 4;
    }
    else
      *o++ = *c;
  }
  *o++ = '\'';
  *o = '\0';
  return r;
}

/* ssh -p PORT HOST nc -U SOCKET, or nc localhost 10809 without
 * socket=, as libnbd runs it.  parse_ssh made sure ssh reads HOST as
 * the destination and nc reads SOCKET as the path.
 */
static int
connect_ssh (struct nbd_handle *h, const struct parsed_uri *p)
{
  char *quoted = NULL;
  const char *argv[] = { "ssh", "-p", p->port, p->host, "nc",
                         "localhost", "10809", NULL };
  int r;

  if (p->socket) {
    quoted = shell_safe (p->socket) ? strdup (p->socket)
      : shell_quote (p->socket);
    if (quoted == NULL) {
      set_error (errno, "malloc");
      return -1;
    }
    argv[5] = "-U";
    argv[6] = quoted;
  }
  r = nbd_unlocked_aio_connect_command (h, (char **) argv);
  free (quoted);
  return r;
}

static int
connect_transport (struct nbd_handle *h, const struct parsed_uri *p)
{
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_TCP:
    return nbd_unlocked_aio_connect_tcp (h, p->host, p->port);
  case LIBNBD_ALLOW_TRANSPORT_UNIX:
    return nbd_unlocked_aio_connect_unix (h, p->socket);
  case LIBNBD_ALLOW_TRANSPORT_SSH:
    return connect_ssh (h, p);
  default:
    return nbd_unlocked_aio_connect_vsock (h, p->cid, p->vsock_port);
  }
}

int
nbd_unlocked_aio_connect_uri (struct nbd_handle *h, const char *raw)
{
  struct parsed_uri p;
  int r = -1;

  if (parse (h, raw, &p) == -1)
    goto out;
  if (apply_tls (h, &p) == -1 ||
      nbd_unlocked_set_export_name (h, export_name (&p)) == -1 ||
      save_uri (h, raw) == -1)
    goto out;
  r = connect_transport (h, &p);
 out:
  free_parsed (&p);
  return r;
}

/* Building a URI back: the pieces before they are joined.  Whatever
 * is written must read back to the same settings.
 */
struct uri_out {
  const char *scheme;
  char *host;                   /* "host:port", "cid:port" or "" */
  char *query;                  /* "a=b&c=d", or NULL */
};

static bool
is_unreserved (unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

/* Percent-encode S, keeping the RFC 3986 unreserved characters and
 * those in KEEP.  Not xmlURIEscapeStr: it never escapes '@', so a user
 * "a@b" would come out as nbd://a@b@host/.  Returns a malloc'd
 * string, or NULL with the error set.
 */
static char *
escape (const char *s, const char *keep)
{
  static const char hex[] = "0123456789ABCDEF";
  const unsigned char *c;
  char *r = malloc (3 * strlen (s) + 1), *o = r;

  if (r == NULL) {
    set_error (errno, "malloc");
    return NULL;
  }
  for (c = (const unsigned char *) s; *c; ++c) {
    if (is_unreserved (*c) || strchr (keep, *c))
      *o++ = *c;
    else {
      *o++ = '%';
      *o++ = hex[*c >> 4];
      *o++ = hex[*c & 15];
    }
  }
  *o = '\0';
  return r;
}

/* Append "NAME=VALUE" to the query, escaping VALUE, and so every '&',
 * ';', '=' and '%' in it.
 */
static int
append_param (struct uri_out *o, const char *name, const char *value)
{
  char *e = escape (value, "/:"), *old = o->query;
  int r;

  if (e == NULL)
    return -1;
  r = asprintf (&o->query, "%s%s%s=%s",
                old ? old : "", old ? "&" : "", name, e);
  free (e);
  if (r == -1) {
    o->query = old;
    set_error (errno, "asprintf");
    return -1;
  }
  free (old);
  return 0;
}

/* "host:port", bracketing an IPv6 literal (hostnames have no ':'). */
static int
set_host_port (struct uri_out *o, const char *host, const char *port)
{
  char *e = escape (host, ":");
  bool v6 = strchr (host, ':') != NULL;
  int r;

  if (e == NULL)
    return -1;
  r = asprintf (&o->host, "%s%s%s:%s", v6 ? "[" : "", e, v6 ? "]" : "",
                port);
  free (e);
  if (r == -1) {
    o->host = NULL;
    set_error (errno, "asprintf");
    return -1;
  }
  return 0;
}

static int
unix_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  const struct sockaddr_un *sun = (const struct sockaddr_un *) &h->connaddr;
  size_t off = offsetof (struct sockaddr_un, sun_path), max;
  char path[sizeof sun->sun_path + 1];

  if (h->connaddr_len <= off || sun->sun_path[0] == '\0') {
    /* The API cannot carry the NUL of an abstract socket name. */
    set_error (EPROTONOSUPPORT, "cannot make a URI for an unnamed or "
               "abstract Unix domain socket");
    return -1;
  }
  max = h->connaddr_len - off;
  if (max > sizeof sun->sun_path)
    max = sizeof sun->sun_path;
  memcpy (path, sun->sun_path, max);
  path[max] = '\0';
  o->scheme = tls ? "nbds+unix" : "nbd+unix";
  o->host = strdup ("");
  if (o->host == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  return append_param (o, "socket", path);
}

static int
inet_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  char host[NI_MAXHOST], serv[NI_MAXSERV];
  int err;

  err = getnameinfo ((const struct sockaddr *) &h->connaddr, h->connaddr_len,
                     host, sizeof host, serv, sizeof serv,
                     NI_NUMERICHOST | NI_NUMERICSERV);
  if (err != 0) {
    set_error (0, "getnameinfo: %s", gai_strerror (err));
    return -1;
  }
  o->scheme = tls ? "nbds" : "nbd";
  return set_host_port (o, host, serv);
}

#if defined (AF_VSOCK) && defined (HAVE_LINUX_VM_SOCKETS_H)
static int
vsock_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  const struct sockaddr_vm *svm = (const struct sockaddr_vm *) &h->connaddr;

  o->scheme = tls ? "nbds+vsock" : "nbd+vsock";
  if (asprintf (&o->host, "%u:%u", svm->svm_cid, svm->svm_port) == -1) {
    o->host = NULL;
    set_error (errno, "asprintf");
    return -1;
  }
  return 0;
}
#endif

/* A handle that ran a command has no address: if an nbd+ssh URI made
 * it, read the server, port and socket back from that URI.  (libnbd
 * 1.22.2 gives up here with EINVAL.)
 */
static int
ssh_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  struct parsed_uri p;
  int r = -1;

  memset (&p, 0, sizeof p);
  if (h->uri == NULL || parse_syntax (h->uri, &p) == -1 ||
      p.scheme->transport != LIBNBD_ALLOW_TRANSPORT_SSH ||
      check_socket (&p) == -1 || parse_ssh (&p) == -1) {
    set_error (EINVAL, "cannot construct a URI for this connection type");
    goto out;
  }
  o->scheme = tls ? "nbds+ssh" : "nbd+ssh";
  if (set_host_port (o, p.host, p.port) == 0 &&
      (p.socket == NULL || append_param (o, "socket", p.socket) == 0))
    r = 0;
 out:
  free_parsed (&p);
  return r;
}

/* Scheme and authority from how the handle connected. */
static int
transport_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  if (h->hostname && h->port) {
    o->scheme = tls ? "nbds" : "nbd";
    return set_host_port (o, h->hostname, h->port);
  }
  switch (h->connaddr_len > 0 ? h->connaddr.ss_family : AF_UNSPEC) {
  case AF_UNIX: return unix_part (h, tls, o);
  case AF_INET: case AF_INET6: return inet_part (h, tls, o);
#if defined (AF_VSOCK) && defined (HAVE_LINUX_VM_SOCKETS_H)
  case AF_VSOCK: return vsock_part (h, tls, o);
#endif
  case AF_UNSPEC: return ssh_part (h, tls, o);
  default:
    set_error (EAFNOSUPPORT, "address family %d not supported",
               h->connaddr.ss_family);
    return -1;
  }
}

/* Every TLS setting made, as libnbd writes them, so the URI connects
 * the same way (the user goes in the authority).
 */
static int
tls_part (struct nbd_handle *h, struct uri_out *o)
{
  if (h->tls_certificates &&
      append_param (o, "tls-certificates", h->tls_certificates) == -1)
    return -1;
  if (h->tls_psk_file &&
      append_param (o, "tls-psk-file", h->tls_psk_file) == -1)
    return -1;
  if (h->tls_hostname &&
      append_param (o, "tls-hostname", h->tls_hostname) == -1)
    return -1;
  if (!h->tls_verify_peer &&
      append_param (o, "tls-verify-peer", "false") == -1)
    return -1;
  return 0;
}

/* Join the pieces: scheme://[user@]host/export[?query]. */
static char *
join (struct nbd_handle *h, const struct uri_out *o)
{
  char *user = NULL, *name = NULL, *ret = NULL;

  name = escape (h->export_name ? h->export_name : "", "/:@");
  if (name == NULL)
    goto out;
  if (h->tls_username && (user = escape (h->tls_username, "")) == NULL)
    goto out;
  if (asprintf (&ret, "%s://%s%s%s/%s%s%s", o->scheme,
                user ? user : "", user ? "@" : "", o->host, name,
                o->query ? "?" : "", o->query ? o->query : "") == -1) {
    ret = NULL;
    set_error (errno, "asprintf");
  }
 out:
  free (user);
  free (name);
  return ret;
}

/* Best effort: a URI that should reach the same server and export.
 * The caller frees it.
 */
char *
nbd_unlocked_get_uri (struct nbd_handle *h)
{
  struct uri_out o = { NULL, NULL, NULL };
  bool tls = h->tls == LIBNBD_TLS_REQUIRE || h->tls_negotiated;
  char *ret = NULL;

  if (transport_part (h, tls, &o) == 0 && tls_part (h, &o) == 0)
    ret = join (h, &o);
  free (o.host);
  free (o.query);
  return ret;
}

/* A heuristic, as in libnbd 1.22: "nbd" or "nbds", optionally with
 * "+unix", "+vsock" or "+ssh", then "://", in any case.  Nothing more
 * is checked: it does not promise that connecting will work.
 */
int
nbd_unlocked_is_uri (struct nbd_handle *h, const char *uri)
{
  static const char *const transports[] = { "://", "+unix://",
                                            "+vsock://", "+ssh://" };
  const char *rest;
  size_t i;

  (void) h;
  if (strncasecmp (uri, "nbd", 3) != 0)
    return 0;
  rest = uri + 3;
  if (*rest == 's' || *rest == 'S')
    rest++;
  for (i = 0; i < sizeof transports / sizeof transports[0]; ++i)
    if (strncasecmp (rest, transports[i], strlen (transports[i])) == 0)
      return 1;
  return 0;
}

int
nbd_unlocked_supports_uri (struct nbd_handle *h)
{
  (void) h;
  return 1;
}

int
nbd_unlocked_set_uri_allow_transports (struct nbd_handle *h, uint32_t mask)
{
  if ((mask & ~LIBNBD_ALLOW_TRANSPORT_MASK) != 0) {
    set_error (EINVAL, "invalid transport mask 0x%x", mask);
    return -1;
  }
  h->uri_allow_transports = mask;
  return 0;
}

int
nbd_unlocked_set_uri_allow_tls (struct nbd_handle *h, int tls)
{
  if (tls != LIBNBD_TLS_DISABLE && tls != LIBNBD_TLS_ALLOW &&
      tls != LIBNBD_TLS_REQUIRE) {
    set_error (EINVAL, "invalid TLS setting %d", tls);
    return -1;
  }
  h->uri_allow_tls = tls;
  return 0;
}

int
nbd_unlocked_set_uri_allow_local_file (struct nbd_handle *h, bool allow)
{
  h->uri_allow_local_file = allow;
  return 0;
}
