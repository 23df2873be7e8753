/* record.c: run the workload against a real server, saving what it sent. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <signal.h>
#include <unistd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "workload.h"

/* Usage: record OUTPUT SERVER [ARGS...]
 *
 * SERVER speaks NBD on its stdin and stdout (nbdkit -s, fake-server).
 * The bytes it sends are the seed: replaying them makes the client
 * take the same path as it did against the real server.  What the
 * server sent after each thing the client said is one burst, and
 * bursts are kept apart by the separator (see pace.c).  With
 * FUZZ_EXTENDED set in the environment the client asks for extended
 * headers (for tests/ext-server); with FUZZ_TLS=MODE it runs the TLS
 * client of tls-workload.c instead (MODE as in workload.h).
 */

static void *
client (void *arg)
{
  const char *tls = getenv ("FUZZ_TLS");

  if (tls) {
    tls_workload_run (*(int *) arg, atoi (tls), false);
    return NULL;
  }
  /* FUZZ_EXTENDED=1: record a server speaking extended headers. */
  workload_extended (getenv ("FUZZ_EXTENDED") != NULL);
  workload_run (*(int *) arg, WORKLOAD_STEPS);
  return NULL;
}

/* Whether the client spoke since the server last did. */
static bool client_spoke;

/* Copy what is readable on FROM to TO (and FP, the server's bytes);
 * false at end of file.
 */
static bool
relay (int from, int to, FILE *fp)
{
  static char buf[65536];
  ssize_t r = read (from, buf, sizeof buf);

  if (r <= 0) {
    shutdown (to, SHUT_WR);
    return false;
  }
  if (fp == NULL)
    client_spoke = true;
  else {
    if (client_spoke &&
        fwrite (workload_separator, WORKLOAD_SEPARATOR_LEN, 1, fp) != 1)
      exit (EXIT_FAILURE);
    client_spoke = false;
    if (fwrite (buf, 1, r, fp) != (size_t) r)
      exit (EXIT_FAILURE);
  }
  /* The client may be gone already: what it missed doesn't matter. */
  (void) !write (to, buf, r);
  return true;
}

static pid_t
start_server (char **argv, int sock)
{
  pid_t pid = fork ();

  if (pid == 0) {
    dup2 (sock, STDIN_FILENO);
    dup2 (sock, STDOUT_FILENO);
    execvp (argv[0], argv);
    perror (argv[0]);
    _exit (127);
  }
  return pid;
}

int
main (int argc, char *argv[])
{
  int c[2], s[2], status;
  bool from_client = true, from_server = true;
  pthread_t thread;
  FILE *fp;
  pid_t pid;

  if (argc < 3) {
    fprintf (stderr, "usage: record OUTPUT SERVER [ARGS...]\n");
    exit (EXIT_FAILURE);
  }
  signal (SIGPIPE, SIG_IGN);
  fp = fopen (argv[1], "wb");
  if (fp == NULL ||
      socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, c) == -1 ||
      socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s) == -1)
    exit (EXIT_FAILURE);
  pid = start_server (&argv[2], s[1]);
  close (s[1]);
  pthread_create (&thread, NULL, client, &c[0]);
  while (from_client || from_server) {
    struct pollfd fds[2] = { { c[1], from_client ? POLLIN : 0, 0 },
                             { s[0], from_server ? POLLIN : 0, 0 } };
    poll (fds, 2, -1);
    if (fds[0].revents)
      from_client = relay (c[1], s[0], NULL);
    if (fds[1].revents)
      from_server = relay (s[0], c[1], fp);
  }
  pthread_join (thread, NULL);
  waitpid (pid, &status, 0);
  fclose (fp);
  exit (EXIT_SUCCESS);
}
