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
#define VSOCK_HOST_CID 2        /* VMADDR_CID_HOST: the hypervisor */

/* The schemes we recognise.  Transport 0 marks one we know of but
 * cannot connect with.
 */
struct scheme {
  const char *name;
  uint32_t transport;           /* LIBNBD_ALLOW_TRANSPORT_*, or 0 */
  bool tls;
};

static const struct scheme schemes[] = {
  { "nbd", LIBNBD_ALLOW_TRANSPORT_TCP, false },
  { "nbds", LIBNBD_ALLOW_TRANSPORT_TCP, true },
  { "nbd+unix", LIBNBD_ALLOW_TRANSPORT_UNIX, false },
  { "nbds+unix", LIBNBD_ALLOW_TRANSPORT_UNIX, true },
  { "nbd+vsock", LIBNBD_ALLOW_TRANSPORT_VSOCK, false },
  { "nbds+vsock", LIBNBD_ALLOW_TRANSPORT_VSOCK, true },
  { "nbd+ssh", 0, false },
  { "nbds+ssh", 0, true },
};

/* A URI taken apart and checked before anything touches the handle,
 * so a bad URI leaves the settings as they were.
 */
struct parsed_uri {
  xmlURIPtr uri;
  const struct scheme *scheme;
  char *socket;                 /* socket=, or NULL */
  char *tls_certificates;
  char *tls_psk_file;
  char *tls_username;           /* userinfo, else tls-username= */
  char *tls_hostname;
  int tls_verify_peer;          /* -1 absent, else 0 or 1 */
  char *host;                   /* TCP: without IPv6 brackets */
  char port[16];                /* TCP */
  uint32_t cid, vsock_port;     /* vsock */
};

/* Query parameters that set a string, and where it goes. */
static const struct {
  const char *name;
  size_t offset;                /* of a char * in struct parsed_uri */
} string_params[] = {
  { "socket", offsetof (struct parsed_uri, socket) },
  { "tls-certificates", offsetof (struct parsed_uri, tls_certificates) },
  { "tls-psk-file", offsetof (struct parsed_uri, tls_psk_file) },
  { "tls-username", offsetof (struct parsed_uri, tls_username) },
  { "tls-hostname", offsetof (struct parsed_uri, tls_hostname) },
};

#define ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))

/* Scheme names compare without case (RFC 3986 section 3.1). */
static const struct scheme *
find_scheme (const char *name, size_t len)
{
  size_t i;

  for (i = 0; i < ARRAY_SIZE (schemes); ++i)
    if (strlen (schemes[i].name) == len &&
        strncasecmp (schemes[i].name, name, len) == 0)
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

static int
parse_bool (const char *s)
{
  if (strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0 ||
      strcasecmp (s, "yes") == 0 || strcasecmp (s, "on") == 0)
    return 1;
  if (strcmp (s, "0") == 0 || strcasecmp (s, "false") == 0 ||
      strcasecmp (s, "no") == 0 || strcasecmp (s, "off") == 0)
    return 0;
  return -1;
}

/* Record one decoded query parameter (names match case-insensitively,
 * as in libnbd).  Takes ownership of VALUE.
 * Unknown parameters are ignored, as libnbd does.
 */
static int
set_param (struct nbd_handle *h, struct parsed_uri *p,
           const char *name, char *value)
{
  size_t i;
  char **slot;

  for (i = 0; i < ARRAY_SIZE (string_params); ++i) {
    if (strcasecmp (name, string_params[i].name) == 0) {
      slot = (char **) ((char *) p + string_params[i].offset);
      free (*slot);             /* the last one wins */
      *slot = value;
      return 0;
    }
  }
  if (strcasecmp (name, "tls-verify-peer") == 0) {
    p->tls_verify_peer = parse_bool (value);
    if (p->tls_verify_peer == -1) {
      set_error (EINVAL, "tls-verify-peer=%s is not a boolean", value);
      free (value);
      return -1;
    }
  }
  else
    debug (h, "ignoring unknown NBD URI query parameter %s", name);
  free (value);
  return 0;
}

/* Decode "name=value" or "name" (LEN bytes at S) and record it. */
static int
parse_one_param (struct nbd_handle *h, struct parsed_uri *p,
                 const char *s, size_t len)
{
  const char *eq = memchr (s, '=', len);
  size_t nlen = eq ? (size_t) (eq - s) : len;
  char *name, *value;
  int r;

  name = unescape (s, nlen);
  value = eq ? unescape (eq + 1, len - nlen - 1) : strdup ("");
  if (name == NULL || value == NULL) {
    set_error (errno, "cannot decode URI query parameter %.*s",
               (int) len, s);
    free (name);
    free (value);
    return -1;
  }
  r = set_param (h, p, name, value);
  free (name);
  return r;
}

/* Query parameters are separated by '&' (or ';', as CGI allows). */
static int
parse_query (struct nbd_handle *h, struct parsed_uri *p, const char *q)
{
  size_t len;

  while (q && *q) {
    len = strcspn (q, "&;");
    if (len > 0 && parse_one_param (h, p, q, len) == -1)
      return -1;
    q += len;
    if (*q)
      q++;
  }
  return 0;
}

static int
check_scheme (const char *raw, struct parsed_uri *p)
{
  const char *s = p->uri->scheme;

  if (s == NULL) {
    set_error (EINVAL, "NBD URI has no scheme: it should begin like "
               "nbd://, nbds:// or nbd+unix://");
    return -1;
  }
  p->scheme = find_scheme (s, strlen (s));
  if (p->scheme == NULL) {
    set_error (EINVAL, "unknown NBD URI scheme: %s", s);
    return -1;
  }
  /* The spec's form is scheme://[authority][/export][?query]. */
  if (strncmp (raw + strlen (s), "://", 3) != 0) {
    set_error (EINVAL, "NBD URI must begin with %s://", s);
    return -1;
  }
  if (p->scheme->transport == 0) {
    set_error (ENOTSUP, "%s URIs are not supported by this build", s);
    return -1;
  }
  return 0;
}

/* What nbd_set_uri_allow_* forbid, then what this build lacks. */
static int
check_policy (struct nbd_handle *h, const struct parsed_uri *p)
{
  const char *s = p->scheme->name;
  const char *file = p->tls_certificates ? "tls-certificates" :
    p->tls_psk_file ? "tls-psk-file" : NULL;

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
  if (file && !h->uri_allow_local_file) {
    set_error (EPERM, "local file access (%s) is not allowed, "
               "call nbd_set_uri_allow_local_file to enable this", file);
    return -1;
  }
  if (p->scheme->tls && nbd_unlocked_supports_tls (h) != 1) {
    set_error (ENOTSUP, "%s: TLS is not supported in this build", s);
    return -1;
  }
  return 0;
}

/* Host and port for TCP.  libxml2 keeps the brackets of an IPv6
 * literal, which getaddrinfo does not want, and reports port 0 when
 * the URI has none (-1 when it has no authority).
 */
static int
parse_tcp (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  size_t len = server ? strlen (server) : 0;
  int port = p->uri->port > 0 ? p->uri->port : NBD_DEFAULT_PORT;

  if (port > 65535) {
    set_error (EINVAL, "NBD URI port %d is out of range", port);
    return -1;
  }
  snprintf (p->port, sizeof p->port, "%d", port);
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

static int
parse_transport (struct parsed_uri *p)
{
  bool is_unix = p->scheme->transport == LIBNBD_ALLOW_TRANSPORT_UNIX;

  if (is_unix && (p->socket == NULL || *p->socket == '\0')) {
    set_error (EINVAL, "%s URI needs a socket parameter "
               "(did you mean %s:///?socket=...?)",
               p->scheme->name, p->scheme->name);
    return -1;
  }
  if (!is_unix && p->socket) {
    set_error (EINVAL, "socket parameter is incompatible with %s: "
               "(did you mean %s+unix:///?socket=...?)",
               p->scheme->name, p->scheme->tls ? "nbds" : "nbd");
    return -1;
  }
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_TCP: return parse_tcp (p);
  case LIBNBD_ALLOW_TRANSPORT_VSOCK: return parse_vsock (p);
  default: return 0;
  }
}

/* The userinfo is the TLS username; it overrides tls-username=. */
static int
take_user (struct parsed_uri *p)
{
  if (p->uri->user == NULL)
    return 0;
  free (p->tls_username);
  p->tls_username = strdup (p->uri->user);
  if (p->tls_username == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  return 0;
}

static void
free_parsed (struct parsed_uri *p)
{
  size_t i;

  for (i = 0; i < ARRAY_SIZE (string_params); ++i)
    free (*(char **) ((char *) p + string_params[i].offset));
  free (p->host);
  xmlFreeURI (p->uri);
}

/* Parse and check RAW into P, which the caller frees even on error. */
static int
parse (struct nbd_handle *h, const char *raw, struct parsed_uri *p)
{
  memset (p, 0, sizeof *p);
  p->tls_verify_peer = -1;
  p->uri = xmlParseURI (raw);
  if (p->uri == NULL) {
    set_error (EINVAL, "unable to parse URI: %s", raw);
    return -1;
  }
  /* A NUL in the authority or export name could not be passed on. */
  if (memmem (raw, strcspn (raw, "?#"), "%00", 3) != NULL) {
    set_error (EINVAL, "NBD URI must not contain %%00: %s", raw);
    return -1;
  }
  if (check_scheme (raw, p) == -1 ||
      parse_query (h, p, p->uri->query_raw) == -1 ||
      take_user (p) == -1 ||
      check_policy (h, p) == -1)
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
  if (p->tls_username &&
      nbd_unlocked_set_tls_username (h, p->tls_username) == -1)
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

static int
connect_transport (struct nbd_handle *h, const struct parsed_uri *p)
{
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_TCP:
    return nbd_unlocked_aio_connect_tcp (h, p->host, p->port);
  case LIBNBD_ALLOW_TRANSPORT_UNIX:
    return nbd_unlocked_aio_connect_unix (h, p->socket);
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

/* Building a URI back: the pieces before they are joined. */
struct uri_out {
  const char *scheme;
  char *host;                   /* "host:port", "cid:port" or "" */
  char *query;                  /* "a=b&c=d", or NULL */
};

/* Percent-encode S, keeping the characters in KEEP.  Returns a
 * malloc'd string, or NULL with the error set.
 */
static char *
escape (const char *s, const char *keep)
{
  xmlChar *e = xmlURIEscapeStr (BAD_CAST s, BAD_CAST keep);
  char *r;

  if (e == NULL) {
    set_error (ENOMEM, "xmlURIEscapeStr");
    return NULL;
  }
  r = strdup ((char *) e);
  xmlFree (e);
  if (r == NULL)
    set_error (errno, "strdup");
  return r;
}

/* Append "NAME=VALUE" to the query, escaping VALUE. */
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
  case AF_UNSPEC:
    set_error (EINVAL, "cannot construct a URI for this connection type");
    return -1;
  default:
    set_error (EAFNOSUPPORT, "address family %d not supported",
               h->connaddr.ss_family);
    return -1;
  }
}

/* TLS query parameters, so the URI connects the same way. */
static int
tls_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  if (h->tls_certificates &&
      append_param (o, "tls-certificates", h->tls_certificates) == -1)
    return -1;
  if (h->tls_psk_file &&
      append_param (o, "tls-psk-file", h->tls_psk_file) == -1)
    return -1;
  if (tls && h->tls_hostname &&
      append_param (o, "tls-hostname", h->tls_hostname) == -1)
    return -1;
  if (tls && !h->tls_verify_peer &&
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

  if (h->uri && !h->hostname && h->connaddr_len == 0) {
    /* Not connected far enough to know more: echo the URI given. */
    ret = strdup (h->uri);
    if (ret == NULL)
      set_error (errno, "strdup");
    return ret;
  }
  if (transport_part (h, tls, &o) == 0 && tls_part (h, tls, &o) == 0)
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
