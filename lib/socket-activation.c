/* socket-activation.c: start a server the systemd way, passing it a
 * listening socket as fd 3 (LISTEN_FDS=1, LISTEN_PID=its pid).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <sys/un.h>

#include "internal.h"

#define FIRST_SOCKET_ACTIVATION_FD 3

extern char **environ;

/* The child's environment: ours minus LISTEN_*, plus the three
 * variables.  LISTEN_PID is a placeholder filled in after fork.
 */
static char **
prepare_env (struct nbd_handle *h, size_t *pid_index)
{
  size_t n = 0, i, j = 0;
  char **env;

  while (environ[n])
    n++;
  env = calloc (n + 4, sizeof *env);
  if (env == NULL)
    return NULL;
  for (i = 0; i < n; ++i)
    if (strncmp (environ[i], "LISTEN_", 7) != 0)
      env[j++] = environ[i];
  *pid_index = j;
  env[j++] = NULL;              /* LISTEN_PID, set in the child */
  env[j++] = "LISTEN_FDS=1";
  if (h->socket_activation_name &&
      asprintf (&env[j++], "LISTEN_FDNAMES=%s",
                h->socket_activation_name) == -1) {
    free (env);
    return NULL;
  }
  return env;
}

static int
make_listening_socket (struct nbd_handle *h)
{
  struct sockaddr_un sun = { .sun_family = AF_UNIX };
  char tmpl[] = "/tmp/libnbdXXXXXX";
  int fd;

  if (mkdtemp (tmpl) == NULL) {
    set_error (errno, "mkdtemp");
    return -1;
  }
  free (h->sact_tmpdir);
  h->sact_tmpdir = strdup (tmpl);
  free (h->sact_sockpath);
  if (h->sact_tmpdir == NULL ||
      asprintf (&h->sact_sockpath, "%s/sock", tmpl) == -1) {
    h->sact_sockpath = NULL;
    set_error (errno, "strdup");
    return -1;
  }
  strcpy (sun.sun_path, h->sact_sockpath);
  fd = socket (AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0);
  if (fd == -1 ||
      bind (fd, (struct sockaddr *) &sun, sizeof sun) == -1 ||
      listen (fd, SOMAXCONN) == -1) {
    set_error (errno, "socket");
    if (fd >= 0)
      close (fd);
    return -1;
  }
  memcpy (&h->connaddr, &sun, sizeof sun);
  h->connaddr_len = sizeof sun;
  return fd;
}

int
nbd_internal_socket_activation (struct nbd_handle *h)
{
  size_t pid_index;
  char pidbuf[64];
  char **env;
  int fd = make_listening_socket (h);
  struct child_spec child = { .argv = h->argv.ptr, .fd = fd,
                              .targets = { FIRST_SOCKET_ACTIVATION_FD, -1 },
                              .listen_pid = pidbuf };
  pid_t pid;

  if (fd == -1)
    return -1;
  env = prepare_env (h, &pid_index);
  if (env == NULL) {
    set_error (errno, "malloc");
    close (fd);
    return -1;
  }
  env[pid_index] = pidbuf;      /* filled in by the child */
  child.envp = env;
  pid = nbd_internal_fork_exec (h, &child);
  if (h->socket_activation_name)
    free (env[pid_index + 2]);
  free (env);
  close (fd);
  if (pid == -1)
    return -1;
  h->pid = pid;
  return 0;
}

int
nbd_unlocked_set_socket_activation_name (struct nbd_handle *h,
                                         const char *name)
{
  char *copy;

  if (strlen (name) > 255 || strchr (name, ':')) {
    set_error (EINVAL, "invalid socket activation name");
    return -1;
  }
  copy = *name ? strdup (name) : NULL;
  if (*name && copy == NULL) {
    set_error (errno, "strdup");
    return -1;
  }
  free (h->socket_activation_name);
  h->socket_activation_name = copy;
  return 0;
}

char *
nbd_unlocked_get_socket_activation_name (struct nbd_handle *h)
{
  char *r = strdup (h->socket_activation_name ? h->socket_activation_name
                    : "");

  if (r == NULL)
    set_error (errno, "strdup");
  return r;
}
