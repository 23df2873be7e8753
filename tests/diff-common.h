/* diff-common.h: what the differential scenario clients (diff-*.c)
 * share.  Each client is built against our include/ and runs twice,
 * on our library and on libnbd 1.22.2 (diff.tap), printing what a
 * program can observe in a canonical text form: the two outputs must
 * be the same.  So nothing printed may depend on the library's
 * addresses, timing or file names, only on its behaviour.
 */
#ifndef DIFF_COMMON_H
#define DIFF_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <stdarg.h>
#include <errno.h>
#include <unistd.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <libnbd.h>

#include "test-common.h"

/* The size of fake-server's export. */
#define DISK_SIZE (1024 * 1024)

/* Print one observation, at once (a crash later must not lose it). */
static inline void
say (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
}

/* The first line of every client: which libnbd.so.0 this process
 * mapped.  diff.tap checks it names the library it meant to run, and
 * leaves it out of the comparison.
 */
static inline void
say_library (void)
{
  FILE *fp = fopen ("/proc/self/maps", "r");
  char line[4096], *path;

  CHECK (fp != NULL);
  while (fgets (line, sizeof line, fp)) {
    path = strchr (line, '/');
    if (path && strstr (path, "libnbd.so")) {
      path[strcspn (path, "\n")] = '\0';
      say ("library: %s", path);
      fclose (fp);
      return;
    }
  }
  fclose (fp);
  say ("library: none mapped");
}

/* An errno as its name: numbers differ nowhere, but names read. */
static inline const char *
errname (int e)
{
  static char other[32];

  switch (e) {
  case 0: return "0";
#define N(x) case x: return #x
  N (EPERM); N (ENOENT); N (EINTR); N (EIO); N (EBADF); N (EAGAIN);
  N (ENOMEM); N (EACCES); N (EFAULT); N (EBUSY); N (EEXIST);
  N (EINVAL); N (ENOSPC); N (ESPIPE); N (EROFS); N (EPIPE);
  N (ERANGE); N (ENAMETOOLONG); N (ENOTSUP); N (EOVERFLOW);
  N (EPROTO); N (EBADMSG); N (ENOTCONN); N (ECONNRESET);
  N (ECONNREFUSED); N (ESHUTDOWN); N (ETIMEDOUT); N (ENOTSOCK);
  N (ECONNABORTED); N (EINPROGRESS); N (EALREADY); N (ENXIO);
  N (E2BIG); N (ECANCELED); N (ENODATA);
#undef N
  }
  snprintf (other, sizeof other, "errno%d", e);
  return other;
}

/* RESULT of the call WHAT, with the library's error if it failed. */
static inline void
say_result (const char *what, int64_t result)
{
  const char *msg = nbd_get_error ();

  if (result == -1)
    say ("%s: -1 errno %s: %s", what, errname (nbd_get_errno ()),
         msg ? msg : "(no message)");
  else
    say ("%s: %" PRIi64, what, result);
}

/* The handle's state, as the nbd_aio_is_* calls say. */
static inline void
say_state (const char *when, struct nbd_handle *h)
{
  say ("%s: state%s%s%s%s%s%s", when,
       nbd_aio_is_created (h) == 1 ? " created" : "",
       nbd_aio_is_connecting (h) == 1 ? " connecting" : "",
       nbd_aio_is_negotiating (h) == 1 ? " negotiating" : "",
       nbd_aio_is_ready (h) == 1 ? " ready" : "",
       nbd_aio_is_processing (h) == 1 ? " processing" : "",
       nbd_aio_is_dead (h) == 1 ? " dead" :
       nbd_aio_is_closed (h) == 1 ? " closed" : "");
}

/* The byte fake-server's pattern holds at disk offset POS. */
static inline unsigned char
pattern_byte (uint64_t pos)
{
  uint64_t base = pos & ~UINT64_C (7);

  return (base >> (8 * (7 - (pos & 7)))) & 0xff;
}

/* What a 512-byte block of a buffer read from disk offset OFFSET
 * holds: 'P' the server's pattern, or "xx" a byte repeated, or '?'.
 */
static inline void
block_kind (const unsigned char *b, size_t len, uint64_t offset,
            char *kind, size_t size)
{
  size_t i;
  bool pattern = true, same = true;

  for (i = 0; i < len; ++i) {
    pattern &= b[i] == pattern_byte (offset + i);
    same &= b[i] == b[0];
  }
  if (pattern && !(same && b[0] == 0))
    snprintf (kind, size, "P");
  else if (same)
    snprintf (kind, size, "%02x", b[0]);
  else
    snprintf (kind, size, "?");
}

/* A buffer as runs of block kinds: "P*64 00*64" is 32 KiB of the
 * pattern then 32 KiB of zeroes.
 */
static inline void
say_buffer (const char *what, const void *buf, size_t len, uint64_t offset)
{
  char out[4096] = "", kind[8], last[8] = "";
  size_t pos, n, run = 0, used = 0;

  for (pos = 0; pos < len; pos += 512) {
    n = len - pos < 512 ? len - pos : 512;
    block_kind ((const unsigned char *) buf + pos, n, offset + pos,
                kind, sizeof kind);
    if (run > 0 && strcmp (kind, last) != 0) {
      used += snprintf (out + used, sizeof out - used, " %s*%zu", last, run);
      run = 0;
    }
    strcpy (last, kind);
    run++;
    if (used >= sizeof out - 32)
      break;
  }
  if (run > 0)
    snprintf (out + used, sizeof out - used, " %s*%zu", last, run);
  say ("%s:%s", what, out);
}

/* fake-server and ext-server: diff.tap says where, else $builddir. */
static inline const char *
test_program (const char *name)
{
  static char path[2][4096];
  static int next;
  const char *dir = getenv ("builddir");
  char *p = path[next++ % 2];

  snprintf (p, sizeof path[0], "%s/%s", dir && *dir ? dir : ".", name);
  if (access (p, X_OK) != 0)
    FAIL ("%s is not built", p);
  return p;
}

/* A pipe whose write end cues a fake-server "wait" token. */
struct cue {
  int fd[2];
};

static inline void
cue_init (struct cue *c)
{
  CHECK (pipe2 (c->fd, O_CLOEXEC) == 0);
}

static inline void
cue_send (struct cue *c)
{
  CHECK (write (c->fd[1], "x", 1) == 1);
}

/* In the forked server: pass a descriptor of pipe end FD as $VAR. */
static inline void
pass_fd (const char *var, int fd)
{
  char s[16];
  int r = dup (fd);             /* without O_CLOEXEC */

  if (r == -1)
    _exit (126);
  snprintf (s, sizeof s, "%d", r);
  setenv (var, s, 1);
}

/* In the forked server: hand it the cue's read end, as
 * $FAKE_SERVER_WAIT_FD, and the tell pipe's write end, as
 * $FAKE_SERVER_TELL_FD (either may be NULL), then exec ARGV on the
 * connected socket S.
 */
static inline void
exec_server (int s, char **argv, struct cue *c, struct cue *tell)
{
  if (dup2 (s, STDIN_FILENO) == -1 || dup2 (s, STDOUT_FILENO) == -1)
    _exit (126);
  if (c)
    pass_fd ("FAKE_SERVER_WAIT_FD", c->fd[0]);
  if (tell)
    pass_fd ("FAKE_SERVER_TELL_FD", tell->fd[1]);
  execv (argv[0], argv);
  _exit (127);
}

/* True once the server's "tell" token has run (the pipe is made
 * non-blocking for this by the first call).
 */
static inline bool
told (struct cue *tell)
{
  char b;

  fcntl (tell->fd[0], F_SETFL, fcntl (tell->fd[0], F_GETFL) | O_NONBLOCK);
  return read (tell->fd[0], &b, 1) == 1;
}

/* Start ARGV on one end of a socket pair and connect H to the other,
 * whose send buffer is SNDBUF bytes (0: the default), with the cue and
 * tell pipes of exec_server.  Returns the
 * server's pid; the connect's result is in *R.
 */
static inline pid_t
start_on_socketpair (struct nbd_handle *h, char **argv, int sndbuf,
                     struct cue *c, struct cue *tell, int *r)
{
  int sv[2];
  pid_t pid;

  CHECK (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  /* 1.22's nbd_connect_socket uses the socket as it is given: a
   * blocking one would block its aio calls.
   */
  CHECK (fcntl (sv[0], F_SETFL, fcntl (sv[0], F_GETFL) | O_NONBLOCK) == 0);
  if (sndbuf > 0)
    CHECK (setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf,
                       sizeof sndbuf) == 0);
  pid = fork ();
  CHECK (pid != -1);
  if (pid == 0)
    exec_server (sv[1], argv, c, tell);
  close (sv[1]);
  *r = nbd_connect_socket (h, sv[0]);
  return pid;
}

/* Start ARGV behind a TCP listener on 127.0.0.1 and connect H to it:
 * only TCP can show a real connection reset.
 */
static inline pid_t
start_on_tcp (struct nbd_handle *h, char **argv, struct cue *c, int *r)
{
  struct sockaddr_in sin = { .sin_family = AF_INET };
  socklen_t len = sizeof sin;
  char port[16];
  int l, s;
  pid_t pid;

  sin.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  l = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  CHECK (l != -1);
  CHECK (bind (l, (struct sockaddr *) &sin, sizeof sin) == 0);
  CHECK (listen (l, 1) == 0);
  CHECK (getsockname (l, (struct sockaddr *) &sin, &len) == 0);
  snprintf (port, sizeof port, "%d", ntohs (sin.sin_port));
  pid = fork ();
  CHECK (pid != -1);
  if (pid == 0) {
    s = accept (l, NULL, NULL);
    if (s == -1)
      _exit (126);
    exec_server (s, argv, c, NULL);
  }
  close (l);
  *r = nbd_connect_tcp (h, "127.0.0.1", port);
  return pid;
}

/* Reap a server the client started, printing how it ended when that
 * is part of the scenario.
 */
static inline int
reap (pid_t pid)
{
  int status;

  CHECK (waitpid (pid, &status, 0) == pid);
  return status;
}

/* Poll H until DONE () or the handle is dead or closed, at most 50
 * times a tenth of a second with nothing happening, so that a library
 * waiting for ever fails here rather than hanging.  Returns the last
 * nbd_poll's result (its error kept for say_result).
 */
static inline int
diff_poll_until (struct nbd_handle *h, bool (*done) (void *), void *arg)
{
  int r = 0, idle = 0;

  while (!done (arg) && !nbd_aio_is_dead (h) && !nbd_aio_is_closed (h)) {
    r = nbd_poll (h, 100);
    if (r == -1)
      break;
    if (r == 0 && ++idle >= 50)
      FAIL ("nothing happened for 5 seconds");
  }
  return r;
}

/* A client's scenarios, by name, and its main: print the library,
 * then run the scenario named by the one argument.
 */
struct diff_scenario {
  const char *name;
  void (*run) (void);
};

static inline int
diff_main (int argc, char *argv[], const struct diff_scenario *s, size_t n)
{
  size_t i;

  if (argc != 2)
    FAIL ("usage: %s SCENARIO", argv[0]);
  say_library ();
  for (i = 0; i < n; ++i)
    if (strcmp (argv[1], s[i].name) == 0) {
      s[i].run ();
      return EXIT_SUCCESS;
    }
  FAIL ("unknown scenario %s", argv[1]);
}

#endif /* DIFF_COMMON_H */
