/* misbehave-early-reply.c: a reply to a request still being sent kills
 * the connection, and no byte leaves from a completed command's buffer.
 */
/* ext-server's early-reply scenario answers a write (or a block status
 * with a filter) as soon as it has read the request's header, then
 * reads the payload 100 ms later and exits with status 3 if any of it
 * changed.  The client's send buffer is shrunk so that every payload
 * here is still being sent when the reply comes.  Expected, as in
 * libnbd 1.22: the reply is a protocol error, the handle dies, the
 * command fails; the completion callback, which overwrites the write
 * buffer as the API allows once a command is complete, changes nothing
 * the server receives.  Each case runs batched and unbatched
 * (LIBNBD_NO_BATCH=1, where even small payloads leave from the
 * caller's buffer).
 */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <libnbd.h>

#include "extended-common.h"

/* Small enough that every payload below blocks half-way. */
#define SNDBUF 4096

struct early {
  char *buf;                    /* the write buffer, or NULL */
  size_t len;
  int calls;                    /* completion callbacks */
  int err;                      /* the error the completion saw */
};

/* The caller may reuse the buffer once a command is complete: do so. */
static int
poison (void *user_data, int *error)
{
  struct early *e = user_data;

  e->calls++;
  e->err = *error;
  if (e->buf)
    memset (e->buf, 'B', e->len);
  return 1;
}

/* Start ext-server early-reply on one end of a socket pair, the other
 * with a small send buffer as H's connection.  Returns its pid.
 */
static pid_t
start_server (struct nbd_handle *h, const char *argv0)
{
  const char *server = ext_server_path (argv0);
  int sv[2], size = SNDBUF;
  pid_t pid;

  CHECK (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  CHECK (setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size) == 0);
  pid = fork ();
  CHECK (pid != -1);
  if (pid == 0) {
    if (dup2 (sv[1], 0) == -1 || dup2 (sv[1], 1) == -1)
      _exit (126);
    execl (server, server, "early-reply", (char *) NULL);
    _exit (127);
  }
  close (sv[1]);
  CHECK (nbd_connect_socket (h, sv[0]) == 0);
  return pid;
}

/* The server must have seen no change in any payload. */
static void
check_server (pid_t pid, const char *what)
{
  int status;

  CHECK (waitpid (pid, &status, 0) == pid);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    FAIL ("%s: the server received bytes written after the completion "
          "(status 0x%x)", what, status);
}

/* Run H until the command is done or the handle dies.  Returns what
 * the last nbd_poll returned, its error kept in ERRNUM and MSG.  A
 * handle still alive goes on to send whatever it still holds (a
 * program would go on using it), then shuts down.
 */
static int
drive (struct nbd_handle *h, struct early *e, int *errnum, char **msg)
{
  int r = 0;

  while (e->calls == 0 && (r = nbd_poll (h, -1)) != -1)
    ;
  *errnum = nbd_get_errno ();
  *msg = strdup (nbd_get_error () ? nbd_get_error () : "");
  CHECK (*msg != NULL);
  if (r != -1 && nbd_shutdown (h, 0) == 0)
    while (!nbd_aio_is_closed (h) && nbd_poll (h, -1) != -1)
      ;
  return r;
}

/* Run COOKIE's command on H, served by PID: the server must see no
 * payload change, the handle must die with EPROTO, and the command
 * must fail once.
 */
static void
expect_death (struct nbd_handle *h, pid_t pid, int64_t cookie,
              struct early *e, const char *what)
{
  int r, errnum;
  char *msg;

  if (cookie == -1)
    FAIL ("%s: the command was refused: %s", what, nbd_get_error ());
  r = drive (h, e, &errnum, &msg);
  nbd_close (h);
  check_server (pid, what);
  if (r != -1)
    FAIL ("%s: the command completed (error %d) on an early reply",
          what, e->err);
  if (errnum != EPROTO ||
      strncmp (msg, "nbd_poll: the server replied to command", 39) != 0)
    FAIL ("%s: wrong error: %s (errno %d)", what, msg, errnum);
  if (e->calls != 1 || e->err == 0)
    FAIL ("%s: completion ran %d times, error %d", what, e->calls, e->err);
  free (msg);
}

static void
early_write (const char *argv0, size_t len, bool extended, const char *what)
{
  struct nbd_handle *h = nbd_create ();
  struct early e = { .len = len };
  nbd_completion_callback cb = { .callback = poison, .user_data = &e };
  pid_t pid;

  CHECK (h != NULL);
  CHECK (nbd_set_request_extended_headers (h, extended) == 0);
  e.buf = malloc (len);
  CHECK (e.buf != NULL);
  memset (e.buf, 'A', len);
  pid = start_server (h, argv0);
  expect_death (h, pid, nbd_aio_pwrite (h, e.buf, len, 0, cb, 0), &e, what);
  free (e.buf);
}

static int
no_extents (void *user_data, const char *metacontext, uint64_t offset,
            nbd_extent *entries, size_t nr_entries, int *error)
{
  FAIL ("extents passed on for an unanswered filter");
}

/* NIDS copies of base:allocation as the filter: 4 bytes each. */
static void
early_filter (const char *argv0, size_t nids, const char *what)
{
  struct nbd_handle *h = ext_handle ();
  struct early e = { 0 };
  nbd_completion_callback cb = { .callback = poison, .user_data = &e };
  nbd_extent64_callback ext = { .callback = no_extents };
  char **names = calloc (nids + 1, sizeof *names);
  size_t i;
  pid_t pid;

  CHECK (names != NULL);
  for (i = 0; i < nids; ++i)
    names[i] = (char *) LIBNBD_CONTEXT_BASE_ALLOCATION;
  pid = start_server (h, argv0);
  CHECK (nbd_get_extended_headers_negotiated (h) == 1);
  expect_death (h, pid, nbd_aio_block_status_filter (h, 1 << 20, 0, names,
                                                     ext, cb, 0), &e, what);
  free (names);
}

static void
run_cases (const char *argv0, const char *mode)
{
  char what[128];
  static const size_t sizes[] = { 60 * 1024, 1024 * 1024 };
  size_t i;

  for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    snprintf (what, sizeof what, "%s write of %zu bytes", mode, sizes[i]);
    early_write (argv0, sizes[i], true, what);
    snprintf (what, sizeof what, "%s compact write of %zu bytes", mode,
              sizes[i]);
    early_write (argv0, sizes[i], false, what);
  }
  /* 16,382 names make a filter of 64 KiB and more: sent from the
   * library's own copy, which the command frees when it retires.
   */
  snprintf (what, sizeof what, "%s filter of 2048 names", mode);
  early_filter (argv0, 2048, what);
  snprintf (what, sizeof what, "%s filter of 16384 names", mode);
  early_filter (argv0, 16384, what);
}

int
main (int argc, char *argv[])
{
  run_cases (argv[0], "batched");
  CHECK (setenv ("LIBNBD_NO_BATCH", "1", 1) == 0);
  run_cases (argv[0], "unbatched");
  exit (EXIT_SUCCESS);
}
