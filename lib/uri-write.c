/* uri-write.c: nbd_get_uri, a URI written back from how the handle
 * connected and its TLS settings.
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netdb.h>
#ifdef HAVE_LINUX_VM_SOCKETS_H
#include <linux/vm_sockets.h>
#endif

#include "internal.h"
#include "uri.h"

/* Building a URI back: the pieces before they are joined.  Whatever
 * is written must read back to the same settings.
 */
struct uri_out {
  const char *scheme;
  char *host;                   /* "host:port", "cid:port" or "" */
  char *query;                  /* "a=b&c=d", or NULL */
  bool ssh;                     /* the user is ssh's, not the TLS one */
  char *ssh_user;               /* nbd+ssh: the URI's user, or NULL */
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

/* The parameters of an nbd+ssh URI that only it has: nbd-port=,
 * compress=true, and tls-username= where the TLS user is not ssh's.
 */
static int
ssh_params (struct nbd_handle *h, const struct parsed_uri *p,
            struct uri_out *o)
{
  const char *user = p->uri->user && *p->uri->user ? p->uri->user : NULL;

  if (p->nbd_port && append_param (o, "nbd-port", p->nbd_port) == -1)
    return -1;
  if (p->compress == 1 && append_param (o, "compress", "true") == -1)
    return -1;
  if (h->tls_username && (user == NULL || strcmp (user, h->tls_username)) &&
      append_param (o, "tls-username", h->tls_username) == -1)
    return -1;
  o->ssh = true;
  if (user && (o->ssh_user = escape (user, "")) == NULL)
    return -1;
  return 0;
}

/* A handle that ran a command has no address: if an nbd+ssh URI made
 * it, read the server, ports, user and socket back from that URI.
 * (libnbd 1.22.2 and 1.24.4 give up here with EINVAL.)
 */
static int
ssh_part (struct nbd_handle *h, bool tls, struct uri_out *o)
{
  struct parsed_uri p;
  int r = -1;

  memset (&p, 0, sizeof p);
  if (h->uri == NULL || nbd_internal_uri_parse_syntax (h->uri, &p) == -1 ||
      p.scheme->transport != LIBNBD_ALLOW_TRANSPORT_SSH ||
      nbd_internal_uri_check_socket (&p) == -1 ||
      nbd_internal_uri_plain_params (&p) == -1 ||
      nbd_internal_uri_parse_ssh (&p) == -1) {
    set_error (EINVAL, "cannot construct a URI for this connection type");
    goto out;
  }
  o->scheme = tls ? "nbds+ssh" : "nbd+ssh";
  if (set_host_port (o, p.host, p.port) == 0 &&
      (p.socket == NULL || append_param (o, "socket", p.socket) == 0) &&
      ssh_params (h, &p, o) == 0)
    r = 0;
 out:
  nbd_internal_uri_free_parsed (&p);
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
  /* As libnbd 1.24: a string set, unless it is the build's default,
   * where URIs may carry one (else the URI would be refused).
   */
  if (h->uri_allow_tls_priority && h->tls_priority &&
      strcmp (h->tls_priority, TLS_PRIORITY) != 0 &&
      append_param (o, "tls-priority", h->tls_priority) == -1)
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
  if (o->ssh)
    user = o->ssh_user;
  else if (h->tls_username && (user = escape (h->tls_username, "")) == NULL)
    goto out;
  if (asprintf (&ret, "%s://%s%s%s/%s%s%s", o->scheme,
                user ? user : "", user ? "@" : "", o->host, name,
                o->query ? "?" : "", o->query ? o->query : "") == -1) {
    ret = NULL;
    set_error (errno, "asprintf");
  }
 out:
  if (!o->ssh)
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
  struct uri_out o = { NULL, NULL, NULL, false, NULL };
  bool tls = h->tls == LIBNBD_TLS_REQUIRE || h->tls_negotiated;
  char *ret = NULL;

  if (transport_part (h, tls, &o) == 0 && tls_part (h, &o) == 0)
    ret = join (h, &o);
  free (o.host);
  free (o.query);
  free (o.ssh_user);
  return ret;
}
