/* uri-ssh.c: the nbd+ssh transport of NBD URIs: check its server,
 * user and socket, then run ssh to reach the server's socket with nc.
 */

#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"
#include "uri.h"

#define SSH_DEFAULT_PORT 22

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
int
nbd_internal_uri_parse_ssh (struct parsed_uri *p)
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

/* ssh -p PORT HOST nc -U SOCKET, or nc localhost 10809 without
 * socket=, as libnbd runs it.  nbd_internal_uri_parse_ssh made sure
 * ssh reads HOST as the destination and nc reads SOCKET as the path.
 */
int
nbd_internal_uri_connect_ssh (struct nbd_handle *h, const struct parsed_uri *p)
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
