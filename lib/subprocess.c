/* subprocess.c: start a server as a child process, doing in the child
 * only what is async-signal-safe (the caller may have other threads).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>

#include "internal.h"

extern char **environ;

/* Everything the child needs, allocated before fork: after fork a
 * threaded parent's child may not call malloc (another thread may hold
 * its lock), and execvp may, so the PATH search happens here.
 */
struct exec_plan {
  char **paths;                 /* candidate files, NULL-terminated */
  char **sh_argv;               /* "sh", path, argv[1..]: for ENOEXEC */
};

static void
free_plan (struct exec_plan *plan)
{
  size_t i;

  if (plan->paths)
    for (i = 0; plan->paths[i]; ++i)
      free (plan->paths[i]);
  free (plan->paths);
  free (plan->sh_argv);
}

/* Each directory of PATH joined with FILE, in order, as execvp would
 * try them.  An empty PATH entry means the current directory.
 */
static char **
path_candidates (const char *file)
{
  const char *path = getenv ("PATH");
  char default_path[256];
  size_t n = 2, i = 0, len;
  const char *p, *end;
  char **v;

  if (path == NULL) {
    if (confstr (_CS_PATH, default_path, sizeof default_path) == 0)
      strcpy (default_path, "/bin:/usr/bin");
    path = default_path;
  }
  for (p = path; *p; ++p)
    n += *p == ':';
  v = calloc (n, sizeof *v);
  if (v == NULL)
    return NULL;
  for (p = path; ; p = end + 1) {
    end = strchrnul (p, ':');
    len = end - p;
    if (asprintf (&v[i], "%.*s%s%s", (int) len, p, len ? "/" : "",
                  file) == -1) {
      v[i] = NULL;
      goto fail;
    }
    i++;
    if (*end == '\0')
      break;
  }
  return v;

 fail:
  for (i = 0; v[i]; ++i)
    free (v[i]);
  free (v);
  return NULL;
}

static int
make_plan (struct exec_plan *plan, char **argv)
{
  size_t argc = 0;

  memset (plan, 0, sizeof *plan);
  while (argv[argc])
    argc++;
  if (argc == 0 || argv[0][0] == '\0') {
    errno = ENOENT;
    return -1;
  }
  if (strchr (argv[0], '/')) {
    plan->paths = calloc (2, sizeof (char *));
    if (plan->paths && (plan->paths[0] = strdup (argv[0])) == NULL)
      goto fail;
  }
  else
    plan->paths = path_candidates (argv[0]);
  plan->sh_argv = calloc (argc + 2, sizeof (char *));
  if (plan->paths == NULL || plan->sh_argv == NULL)
    goto fail;
  plan->sh_argv[0] = (char *) "sh";
  memcpy (&plan->sh_argv[2], &argv[1], (argc - 1) * sizeof (char *));
  return 0;

 fail:
  free_plan (plan);
  return -1;
}

/* In the child: try each candidate as execvp does.  Returns only if
 * all failed.
 */
static void
exec_candidates (struct exec_plan *plan, char **argv, char **envp)
{
  size_t i;

  for (i = 0; plan->paths[i]; ++i) {
    execve (plan->paths[i], argv, envp);
    if (errno == ENOEXEC) {
      plan->sh_argv[1] = plan->paths[i];
      execve ("/bin/sh", plan->sh_argv, envp);
      return;
    }
    if (errno != ENOENT && errno != ENOTDIR && errno != EACCES)
      return;
  }
}

/* Async-signal-safe: "LISTEN_PID=" followed by this process's pid. */
static void
format_listen_pid (char *buf)
{
  char tmp[32];
  int n = 0;
  pid_t pid = getpid ();

  memcpy (buf, "LISTEN_PID=", 11);
  buf += 11;
  do {
    tmp[n++] = '0' + pid % 10;
    pid /= 10;
  } while (pid > 0);
  while (n > 0)
    *buf++ = tmp[--n];
  *buf = '\0';
}

/* In the child: SPEC->fd becomes each of SPEC->targets, every fd above
 * them and above stderr is closed, SIGPIPE is reset, then the exec.
 */
static void __attribute__ ((noreturn))
run_child (const struct child_spec *spec, struct exec_plan *plan)
{
  int fd, max = sysconf (_SC_OPEN_MAX), keep = 2;
  size_t t;
  struct sigaction sa = { .sa_handler = SIG_DFL };

  for (t = 0; t < 2 && spec->targets[t] >= 0; ++t) {
    if (spec->fd == spec->targets[t])
      fcntl (spec->fd, F_SETFD, 0);
    else if (dup2 (spec->fd, spec->targets[t]) == -1)
      _exit (126);
    if (spec->targets[t] > keep)
      keep = spec->targets[t];
  }
  if (max < 0 || max > 65536)
    max = 65536;
  for (fd = keep + 1; fd < max; ++fd)
    close (fd);
  if (spec->listen_pid)
    format_listen_pid (spec->listen_pid);
  sigemptyset (&sa.sa_mask);
  sigaction (SIGPIPE, &sa, NULL);
  exec_candidates (plan, spec->argv, spec->envp ? spec->envp : environ);
  _exit (126);
}

pid_t
nbd_internal_fork_exec (struct nbd_handle *h, const struct child_spec *spec)
{
  struct exec_plan plan;
  pid_t pid;

  if (make_plan (&plan, spec->argv) == -1) {
    set_error (errno, "cannot run %s",
               spec->argv[0] ? spec->argv[0] : "an empty command");
    return -1;
  }
  pid = fork ();
  if (pid == 0)
    run_child (spec, &plan);
  free_plan (&plan);
  if (pid == -1)
    set_error (errno, "fork");
  return pid;
}
