/* uri.h: a URI taken apart, shared by the URI files of lib/: uri.c
 * parses it, uri-ssh.c runs the nbd+ssh transport from it, uri-write.c
 * reads an nbd+ssh URI back for nbd_get_uri.
 */
#ifndef LIBNBD_URI_H
#define LIBNBD_URI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/uri.h>

#include "internal.h"

/* One scheme of the NBD URI specification. */
struct scheme {
  const char *name;
  uint32_t transport;           /* LIBNBD_ALLOW_TRANSPORT_* */
  bool tls;
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
  const char *tls_priority;
  const char *tls_username;     /* overrides the authority's user */
  const char *nbd_port;         /* overrides the authority's port */
  int tls_verify_peer;          /* -1 absent, else 0 or 1 */
  int compress;                 /* -1 absent, else 0 or 1 (SSH: -C) */
  char *host;                   /* TCP, SSH: without IPv6 brackets */
  char port[32];                /* TCP (a number or a service), SSH */
  char nc_port[16];             /* SSH: the NBD server's port for nc */
  uint32_t cid, vsock_port;     /* vsock */
};

/* ---- uri.c: parsing ---- */

/* The syntax alone, without the handle's policy: RAW into P, which the
 * caller frees with nbd_internal_uri_free_parsed even on error.
 */
extern int nbd_internal_uri_parse_syntax (const char *raw,
                                          struct parsed_uri *p);
extern int nbd_internal_uri_check_socket (struct parsed_uri *p);
/* The query parameters that need no policy: tls-username, nbd-port,
 * compress, as the last of each says.
 */
extern int nbd_internal_uri_plain_params (struct parsed_uri *p);
extern int nbd_internal_uri_set_port (struct parsed_uri *p, int dflt);
/* S as a port number: all digits, at most MAX, in *N; else -1. */
extern int nbd_internal_uri_port_number (const char *s, unsigned long max,
                                         unsigned long *n);
extern void nbd_internal_uri_free_parsed (struct parsed_uri *p);

/* ---- uri-ssh.c: the nbd+ssh transport ---- */
extern int nbd_internal_uri_parse_ssh (struct parsed_uri *p);
extern int nbd_internal_uri_connect_ssh (struct nbd_handle *h,
                                         const struct parsed_uri *p);

#endif /* LIBNBD_URI_H */
