/* uri-ssh.c: the nbd+ssh transport of NBD URIs: check its server,
 * user and socket, then run ssh to reach the server's socket with nc.
 */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"
#include "uri.h"

#define SSH_DEFAULT_PORT 22
#define NBD_DEFAULT_PORT 10809

/* Would ssh(1) or the remote nc(1) read S as an option?  libnbd 1.22.2
 * passes the host as it is, so nbd+ssh://-oProxyCommand=.../ runs a
 * command on the client.
 */
static bool
is_option (const char *s)
{
  return s && s[0] == '-';
}

/* Could USER reach ssh as anything but a user name?  It goes to ssh
 * as "-o User=USER", and ssh may put it in a command of its own
 * configuration (%r in ProxyCommand, Match exec), so only the
 * characters of user names are taken.
 */
static bool
user_unsafe (const char *user)
{
  return user && (is_option (user) ||
                  strspn (user, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "abcdefghijklmnopqrstuvwxyz0123456789"
                          "._-@+") != strlen (user));
}

/* Server and ports for SSH: the authority's port is ssh's, nbd-port=
 * the NBD server's on the far side.  The user is ssh's, and the TLS
 * user too unless tls-username= says otherwise, as in libnbd 1.24.
 */
int
nbd_internal_uri_parse_ssh (struct parsed_uri *p)
{
  const char *server = p->uri->server;
  unsigned long n = NBD_DEFAULT_PORT;

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
  /* ssh may expand the host too (%h in a ProxyCommand): the
   * characters of host names and address literals only.
   */
  if (strspn (server, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
              "abcdefghijklmnopqrstuvwxyz0123456789"
              ".-_:[]%") != strlen (server)) {
    set_error (EINVAL, "NBD URI: the SSH server %s has characters other "
               "than those of host names and addresses", server);
    return -1;
  }
  if (user_unsafe (p->uri->user)) {
    set_error (EINVAL, "NBD URI: the SSH user %s has characters other "
               "than letters, digits and ._-@+", p->uri->user);
    return -1;
  }
  /* nc's port reaches the remote shell: a number, nothing else. */
  if (p->nbd_port &&
      nbd_internal_uri_port_number (p->nbd_port, 65535, &n) == -1) {
    set_error (EINVAL, "NBD URI: nbd-port=%s is not a port number",
               p->nbd_port);
    return -1;
  }
  snprintf (p->nc_port, sizeof p->nc_port, "%lu", n);
  if (nbd_internal_uri_set_port (p, SSH_DEFAULT_PORT) == -1)
    return -1;
  p->host = strdup (server);
  if (p->host == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
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

/* ssh [-C] -p PORT [-o User=USER] -- HOST nc -U SOCKET, or nc
 * localhost NBD-PORT without socket=, as libnbd 1.24 runs it.
 * nbd_internal_uri_parse_ssh made sure ssh reads HOST as the
 * destination and nc reads SOCKET as the path.
 */
int
nbd_internal_uri_connect_ssh (struct nbd_handle *h, const struct parsed_uri *p)
{
  char *quoted = NULL, *user = NULL;
  const char *argv[16];
  size_t i = 0;
  int r = -1;

  if (p->socket) {
    quoted = shell_safe (p->socket) ? strdup (p->socket)
      : shell_quote (p->socket);
    if (quoted == NULL) {
      set_error (errno, "malloc");
      goto out;
    }
  }
  if (p->uri->user && *p->uri->user &&
      asprintf (&user, "User=%s", p->uri->user) == -1) {
    user = NULL;
    set_error (errno, "asprintf");
    goto out;
  }
  argv[i++] = "ssh";
  if (p->compress == 1)
    argv[i++] = "-C";
  argv[i++] = "-p";
  argv[i++] = p->port;
  if (user) {
    argv[i++] = "-o";
    argv[i++] = user;
  }
  argv[i++] = "--";
  argv[i++] = p->host;
  argv[i++] = "nc";
  argv[i++] = quoted ? "-U" : "localhost";
  argv[i++] = quoted ? quoted : p->nc_port;
  argv[i] = NULL;
  r = nbd_unlocked_aio_connect_command (h, (char **) argv);
 out:
  free (user);
  free (quoted);
  return r;
}
