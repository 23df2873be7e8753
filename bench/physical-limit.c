/* physical-limit.c: the least that moving SIZE bytes through HOPS Unix
 * sockets costs on this machine, to set nbdcopy beside.  A source
 * process writes the bytes nbdkit's pattern plugin serves (each 8-byte
 * word its own offset, big-endian) in CHUNK-byte writes; with HOPS 2 a
 * relay process reads each chunk and writes it on (what nbdcopy does
 * between two servers); a sink reads and drops them (what a server, or
 * nbdcopy's null:, does).  No protocol, no headers, no threads: only
 * the copies through the kernel that any client of a socket must pay.
 *
 * The client's side (the relay, or with HOPS 1 the sink) sets SO_SNDBUF
 * to 2 MiB as our library does on Unix sockets; the source keeps the
 * default, as nbdkit does.
 *
 * Prints one line: wall seconds, then the CPU seconds of the process
 * in nbdcopy's place (relay, or sink with HOPS 1).
 *
 * usage: physical-limit HOPS SIZE [CHUNK]   (CHUNK: 262144)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "clock.h"

static void
die (const char *what)
{
  perror (what);
  exit (1);
}

static void
write_all (int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t r = write (fd, p, n);
    if (r == -1) {
      if (errno == EINTR)
        continue;
      die ("write");
    }
    p += r;
    n -= r;
  }
}

/* Fill buf with the pattern plugin's bytes for [offset, offset+len).
 * offset and len are multiples of 8.
 */
static void
fill_pattern (char *buf, uint64_t offset, size_t len)
{
  size_t i;

  for (i = 0; i < len; i += 8) {
    uint64_t be = htobe64 (offset + i);
    memcpy (buf + i, &be, 8);
  }
}

static void
source (int out, uint64_t size, size_t chunk, char *buf)
{
  uint64_t off;

  for (off = 0; off < size; off += chunk) {
    size_t n = size - off < chunk ? size - off : chunk;
    fill_pattern (buf, off, n);
    write_all (out, buf, n);
  }
}

/* Read until EOF; with out >= 0, pass every read on.  Returns the
 * bytes read.
 */
static uint64_t
drain (int in, int out, size_t chunk, char *buf)
{
  uint64_t total = 0;

  for (;;) {
    ssize_t r = read (in, buf, chunk);
    if (r == -1) {
      if (errno == EINTR)
        continue;
      die ("read");
    }
    if (r == 0)
      return total;
    if (out >= 0)
      write_all (out, buf, r);
    total += r;
  }
}

static void
set_client_sndbuf (int fd)
{
  int v = 2 * 1024 * 1024;

  if (setsockopt (fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof v) == -1)
    die ("setsockopt SO_SNDBUF");
}

/* Fork a stage: it runs with in and out (either may be -1), closes
 * every other descriptor in fds[0..nfds), and exits.
 */
static pid_t
stage (int role, int in, int out, const int *fds, int nfds,
       uint64_t size, size_t chunk)
{
  pid_t pid = fork ();
  char *buf;
  int i;

  if (pid == -1)
    die ("fork");
  if (pid > 0)
    return pid;
  for (i = 0; i < nfds; ++i)
    if (fds[i] != in && fds[i] != out)
      close (fds[i]);
  buf = malloc (chunk);
  if (buf == NULL)
    die ("malloc");
  if (role == 0)
    source (out, size, chunk, buf);
  else if (drain (in, out, chunk, buf) != size) {
    fprintf (stderr, "physical-limit: short stream\n");
    _exit (1);
  }
  _exit (0);
}

int
main (int argc, char *argv[])
{
  int hops, a[2], b[2] = { -1, -1 }, fds[4], status, i, failed = 0;
  uint64_t size;
  size_t chunk = 262144;
  pid_t pids[3], client;
  struct rusage ru, client_ru = { 0 };
  double t0, t1;

  if (argc < 3 || argc > 4 ||
      ((hops = atoi (argv[1])) != 1 && hops != 2)) {
    fprintf (stderr, "usage: physical-limit 1|2 SIZE [CHUNK]\n");
    exit (1);
  }
  size = strtoull (argv[2], NULL, 0);
  if (argc == 4)
    chunk = strtoul (argv[3], NULL, 0);
  if (chunk == 0 || chunk % 8 || size % 8) {
    fprintf (stderr, "physical-limit: SIZE and CHUNK must be multiples of 8\n");
    exit (1);
  }

  /* a: source -> (relay or sink); b: relay -> sink. */
  if (socketpair (AF_UNIX, SOCK_STREAM, 0, a) == -1 ||
      (hops == 2 && socketpair (AF_UNIX, SOCK_STREAM, 0, b) == -1))
    die ("socketpair");
  fds[0] = a[0]; fds[1] = a[1]; fds[2] = b[0]; fds[3] = b[1];
  if (hops == 2)
    set_client_sndbuf (b[0]);
  else
    set_client_sndbuf (a[1]);

  t0 = now ();
  pids[0] = stage (0, -1, a[0], fds, 4, size, chunk);
  if (hops == 2) {
    pids[1] = stage (1, a[1], b[0], fds, 4, size, chunk);
    pids[2] = stage (1, b[1], -1, fds, 4, size, chunk);
  }
  else
    pids[1] = stage (1, a[1], -1, fds, 4, size, chunk);
  client = pids[1];
  for (i = 0; i < 4; ++i)
    close (fds[i]);

  for (i = 0; i <= hops; ++i) {
    pid_t p = wait4 (-1, &status, 0, &ru);
    if (p == -1)
      die ("wait4");
    if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
      failed = 1;
    if (p == client)
      client_ru = ru;
  }
  t1 = now ();
  if (failed) {
    fprintf (stderr, "physical-limit: a stage failed\n");
    exit (1);
  }
  printf ("%.4f %.4f\n", t1 - t0,
          client_ru.ru_utime.tv_sec + client_ru.ru_utime.tv_usec / 1e6 +
          client_ru.ru_stime.tv_sec + client_ru.ru_stime.tv_usec / 1e6);
  return 0;
}
