/* bg-server.h: an nbdkit in the background on a private Unix socket,
 * for the tests that kill the server under a connected handle (so it
 * cannot be the handle's own subprocess).  It is killed at exit if the
 * test did not kill it first.
 */
#ifndef BG_SERVER_H
#define BG_SERVER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>

#include "test-common.h"

struct bg_server {
  char tmpdir[32];
  char sock[64];
  char pidfile[64];
  char log[64];                 /* nbdkit's log filter writes here */
  pid_t pid;
};

/* The one server of a test: static, as the exit handler runs after
 * main has returned.
 */
static struct bg_server bg_server;

static inline void
bg_server_cleanup (void)
{
  struct bg_server *srv = &bg_server;

  if (srv->pid > 0)
    kill (srv->pid, SIGKILL);
  unlink (srv->sock);
  unlink (srv->pidfile);
  unlink (srv->log);
  rmdir (srv->tmpdir);
}

/* Start "nbdkit -U SOCK -P PIDFILE ARGS", which forks into the
 * background once it listens and has written its pid.  With LOGGED,
 * nbdkit's log filter (outermost) writes each request it has read to
 * bg_server.log: see bg_server_wait_log.
 */
static inline const struct bg_server *
bg_server_start_with (const char *args, bool logged)
{
  struct bg_server *srv = &bg_server;
  struct timespec ts = { 0, 50000000 };
  char cmd[1024];
  FILE *fp;
  int i;

  snprintf (srv->tmpdir, sizeof srv->tmpdir, "/tmp/bg-serverXXXXXX");
  CHECK (mkdtemp (srv->tmpdir) != NULL);
  snprintf (srv->sock, sizeof srv->sock, "%.31s/sock", srv->tmpdir);
  snprintf (srv->pidfile, sizeof srv->pidfile, "%.31s/pid", srv->tmpdir);
  snprintf (srv->log, sizeof srv->log, "%.31s/log", srv->tmpdir);
  srv->pid = 0;
  atexit (bg_server_cleanup);
  /* The log filter's logfile= goes last, among the plugin's keys. */
  if (logged)
    snprintf (cmd, sizeof cmd, "nbdkit -U %s -P %s --filter=log %s "
              "logfile=%s", srv->sock, srv->pidfile, args, srv->log);
  else
    snprintf (cmd, sizeof cmd, "nbdkit -U %s -P %s %s",
              srv->sock, srv->pidfile, args);
  if (system (cmd) != 0)
    FAIL ("could not start nbdkit: %s", cmd);
  for (i = 0; i < 100; ++i) {
    fp = fopen (srv->pidfile, "r");
    if (fp) {
      int ok = fscanf (fp, "%d", &srv->pid) == 1 && srv->pid > 0;
      fclose (fp);
      if (ok)
        return srv;
    }
    nanosleep (&ts, NULL);
  }
  FAIL ("nbdkit did not write %s", srv->pidfile);
}

static inline const struct bg_server *
bg_server_start (const char *args)
{
  return bg_server_start_with (args, false);
}

/* Wait until the server has read N requests named NAME ("Read",
 * "Write"...): its log has N lines " NAME id=" (a reply's line says
 * "...NAME").  A server killed with requests still unread in its
 * socket resets the connection instead of closing it, so this is what
 * makes a kill end the connection one way only.
 */
static inline void
bg_server_wait_log (const char *name, int n)
{
  struct timespec ts = { 0, 10000000 };
  char line[512], word[64];
  int i, seen = 0;
  FILE *fp;

  snprintf (word, sizeof word, " %s id=", name);
  for (i = 0; i < 1000; ++i) {
    fp = fopen (bg_server.log, "r");
    seen = 0;
    if (fp) {
      while (fgets (line, sizeof line, fp))
        seen += strstr (line, word) != NULL;
      fclose (fp);
    }
    if (seen >= n)
      return;
    nanosleep (&ts, NULL);
  }
  FAIL ("the server read %d of %d %s requests", seen, n, name);
}

static inline void
bg_server_kill (void)
{
  CHECK (kill (bg_server.pid, SIGKILL) == 0);
  bg_server.pid = 0;
}

/* SIGALRM: the test hangs.  Kill the server (the exit handler would
 * not run) and fail.  Only async-signal-safe calls.
 */
static inline void
bg_server_hung (int sig)
{
  static const char msg[] = "FAIL: the test hung (alarm)\n";

  (void) sig;
  if (write (STDERR_FILENO, msg, sizeof msg - 1) == -1) {
    /* Nowhere else to say it: the exit status tells. */
  }
  bg_server_cleanup ();
  _exit (EXIT_FAILURE);
}

/* Fail, rather than hang, if the test is not done in SECONDS. */
static inline void
bg_server_alarm (unsigned seconds)
{
  signal (SIGALRM, bg_server_hung);
  alarm (seconds);
}

#endif /* BG_SERVER_H */
