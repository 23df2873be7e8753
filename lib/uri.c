/* uri.c: NBD URIs: parse one, check it and connect to it; is_uri and
 * the nbd_set_uri_allow_* policy.  Writing one back is uri-write.c,
 * the nbd+ssh transport uri-ssh.c.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <errno.h>

#include <libxml/uri.h>

#include "internal.h"
#include "uri.h"

#define NBD_DEFAULT_PORT 10809
#define VSOCK_HOST_CID 2        /* VMADDR_CID_HOST: the hypervisor */

/* The schemes we recognise. */
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
int
nbd_internal_uri_parse_syntax (const char *raw, struct parsed_uri *p)
{
  memset (p, 0, sizeof *p);
  p->tls_verify_peer = -1;
  p->compress = -1;
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
int
nbd_internal_uri_check_socket (struct parsed_uri *p)
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

/* The parameters every handle accepts.  The last of each wins. */
int
nbd_internal_uri_plain_params (struct parsed_uri *p)
{
  size_t i;

  for (i = 0; i < p->nparams; ++i) {
    const struct param *q = &p->params[i];

    if (strcasecmp (q->name, "tls-username") == 0)
      p->tls_username = q->value;
    else if (strcasecmp (q->name, "nbd-port") == 0)
      p->nbd_port = q->value;
    else if (strcasecmp (q->name, "compress") == 0) {
      p->compress = parse_bool (q->value);
      if (p->compress == -1) {
        set_error (EINVAL, "could not parse compress parameter, "
                   "expecting compress=true|false");
        return -1;
      }
    }
  }
  return 0;
}

/* Check one query parameter and note where its value goes.  Unknown
 * names are ignored, as libnbd does.
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
  if (strcasecmp (q->name, "tls-priority") == 0) {
    if (!h->uri_allow_tls_priority) {
      set_error (EPERM, "overriding TLS priority (tls-priority) is not "
                 "allowed, call nbd_set_uri_allow_tls_priority to "
                 "enable this");
      return -1;
    }
    p->tls_priority = q->value;
  }
  else if (strcasecmp (q->name, "tls-verify-peer") == 0) {
    p->tls_verify_peer = parse_bool (q->value);
    if (p->tls_verify_peer == -1) {
      set_error (EINVAL, "tls-verify-peer=%s is not a boolean", q->value);
      return -1;
    }
  }
  else if (strcasecmp (q->name, "compress") == 0) {
    if (parse_bool (q->value) == -1) {
      set_error (EINVAL, "could not parse compress parameter, "
                 "expecting compress=true|false");
      return -1;
    }
  }
  else if (strcasecmp (q->name, "tls-username") != 0 &&
           strcasecmp (q->name, "nbd-port") != 0)
    debug (h, "ignoring unknown NBD URI query parameter %s", q->name);
  return 0;
}

/* A port number of S (all digits, at most MAX) in *N; -1 if not. */
int
nbd_internal_uri_port_number (const char *s, unsigned long max,
                              unsigned long *n)
{
  char *end;

  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  *n = strtoul (s, &end, 10);
  return errno || *end || *n > max ? -1 : 0;
}

/* Port 0 or none means the default.  libxml2 reports -1 without an
 * authority.  libnbd 1.22 wraps a port above 65535: we refuse it.
 */
int
nbd_internal_uri_set_port (struct parsed_uri *p, int dflt)
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
 * literal, which getaddrinfo does not want.  nbd-port= may name a
 * number or a service, as getaddrinfo takes it.
 */
static int
parse_tcp (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  size_t len = server ? strlen (server) : 0;
  unsigned long n;

  if (p->nbd_port) {
    if (*p->nbd_port == '\0' || strlen (p->nbd_port) >= sizeof p->port ||
        (*p->nbd_port >= '0' && *p->nbd_port <= '9' &&
         nbd_internal_uri_port_number (p->nbd_port, 65535, &n) == -1)) {
      set_error (EINVAL, "NBD URI nbd-port=%s is not a port", p->nbd_port);
      return -1;
    }
    strcpy (p->port, p->nbd_port);
  }
  else if (nbd_internal_uri_set_port (p, NBD_DEFAULT_PORT) == -1)
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

/* The server part of a vsock URI is the numeric CID; nbd-port= may
 * give a port above libxml2's 31 bits.
 */
static int
parse_vsock (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  unsigned long long n;
  unsigned long port;
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
  if (p->nbd_port) {
    if (nbd_internal_uri_port_number (p->nbd_port, UINT32_MAX, &port) == -1) {
      set_error (EINVAL, "cannot parse vsock port from nbd-port: %s",
                 p->nbd_port);
      return -1;
    }
    p->vsock_port = port;
  }
  return 0;
}

static int
parse_transport (struct parsed_uri *p)
{
  switch (p->scheme->transport) {
  case LIBNBD_ALLOW_TRANSPORT_TCP: return parse_tcp (p);
  case LIBNBD_ALLOW_TRANSPORT_VSOCK: return parse_vsock (p);
  case LIBNBD_ALLOW_TRANSPORT_SSH: return nbd_internal_uri_parse_ssh (p);
  default: return 0;
  }
}

void
nbd_internal_uri_free_parsed (struct parsed_uri *p)
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

  if (nbd_internal_uri_parse_syntax (raw, p) == -1 ||
      check_policy (h, p) == -1 ||
      nbd_internal_uri_check_socket (p) == -1)
    return -1;
  if (p->scheme->tls && nbd_unlocked_supports_tls (h) != 1) {
    set_error (ENOTSUP, "%s: TLS is not supported in this build",
               p->uri->scheme);
    return -1;
  }
  for (i = 0; i < p->nparams; ++i)
    if (check_param (h, p, &p->params[i]) == -1)
      return -1;
  if (nbd_internal_uri_plain_params (p) == -1)
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
  if (p->tls_username || p->uri->user) {
    if (nbd_unlocked_set_tls_username (h, p->tls_username ? p->tls_username
                                       : p->uri->user) == -1)
      return -1;
  }
  if (p->tls_priority &&
      nbd_unlocked_set_tls_priority (h, p->tls_priority) == -1)
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
  case LIBNBD_ALLOW_TRANSPORT_SSH:
    return nbd_internal_uri_connect_ssh (h, p);
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
  nbd_internal_uri_free_parsed (&p);
  return r;
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

int
nbd_unlocked_set_uri_allow_tls_priority (struct nbd_handle *h, bool allow)
{
  h->uri_allow_tls_priority = allow;
  return 0;
}
