/* diff-early-reply.c: ext-server's early-reply scenario, which answers
 * a request with a payload as soon as it has its header, then checks
 * that the payload did not change on the way (diff.tap runs it on our
 * library and on libnbd 1.22.2).  The completion overwrites a write's
 * buffer, as a program may once a command is complete; the send buffer
 * is small, so every payload is still being sent when the reply comes.
 *
 * Usage: diff-early-reply write|filter
 */
#include <config.h>

#include "diff-common.h"

#define SNDBUF 4096

struct early {
  char *buf;                    /* a write's buffer, or NULL */
  size_t len;
  int calls, err;
};

static int
overwrite (void *user_data, int *error)
{
  struct early *e = user_data;

  e->calls++;
  e->err = *error;
  if (e->buf)
    memset (e->buf, 'B', e->len);
  return 1;
}

static int
extents (void *user_data, const char *metacontext, uint64_t offset,
         nbd_extent *entries, size_t nr_entries, int *error)
{
  say ("extent callback: %s", metacontext);
  return 0;
}

/* Start ext-server early-reply for H; send COOKIE's command (started
 * by START) and print what came of it and what the server saw.
 */
static void
run_case (const char *what, struct nbd_handle *h, struct early *e,
          int64_t (*start) (struct nbd_handle *, struct early *))
{
  char *args[] = { (char *) test_program ("ext-server"),
                   (char *) "early-reply", NULL };
  int64_t cookie;
  pid_t pid;
  int r, status, idle = 0;

  pid = start_on_socketpair (h, args, SNDBUF, NULL, NULL, &r);
  CHECK (r == 0);
  say ("%s", what);
  cookie = start (h, e);
  say_result ("the call", cookie > 0 ? 0 : cookie);
  r = 0;
  while (e->calls == 0 && (r = nbd_poll (h, 100)) != -1)
    if (r == 0 && ++idle >= 10)
      break;
  if (idle >= 10)
    say ("nothing happened for a second, the command still in flight");
  else
    say_result ("the last nbd_poll", r);
  say ("completion ran %d time(s), error %s", e->calls, errname (e->err));
  say_state ("then", h);
  nbd_close (h);
  status = reap (pid);
  say ("the server %s", WIFEXITED (status) && WEXITSTATUS (status) == 0
       ? "saw every payload as it was when the call was made"
       : WIFEXITED (status) && WEXITSTATUS (status) == 3
       ? "received bytes written after the completion"
       : "failed");
}

static size_t cur_nids;

static int64_t
start_write (struct nbd_handle *h, struct early *e)
{
  return nbd_aio_pwrite (h, e->buf, e->len, 0, (nbd_completion_callback) {
                           .callback = overwrite, .user_data = e }, 0);
}

static int64_t
start_filter (struct nbd_handle *h, struct early *e)
{
  char **names = calloc (cur_nids + 1, sizeof *names);
  size_t i;
  int64_t r;

  CHECK (names != NULL);
  for (i = 0; i < cur_nids; ++i)
    names[i] = (char *) LIBNBD_CONTEXT_BASE_ALLOCATION;
  r = nbd_aio_block_status_filter (h, 1 << 20, 0, names,
                                   (nbd_extent64_callback) {
                                     .callback = extents },
                                   (nbd_completion_callback) {
                                     .callback = overwrite,
                                     .user_data = e }, 0);
  free (names);
  return r;
}

static void
writes (void)
{
  static const size_t sizes[] = { 60 * 1024, 1024 * 1024 };
  char what[128];
  size_t i;
  int ext;

  for (i = 0; i < 2; ++i)
    for (ext = 1; ext >= 0; --ext) {
      struct nbd_handle *h = nbd_create ();
      struct early e = { .len = sizes[i], .err = -1 };

      CHECK (h != NULL);
      CHECK (nbd_set_request_extended_headers (h, ext) == 0);
      e.buf = malloc (e.len);
      CHECK (e.buf != NULL);
      memset (e.buf, 'A', e.len);
      snprintf (what, sizeof what, "%s write of %zu bytes",
                ext ? "extended" : "compact", sizes[i]);
      run_case (what, h, &e, start_write);
      free (e.buf);
    }
}

static void
filters (void)
{
  static const size_t nids[] = { 2048, 16384 };
  char what[128];
  size_t i;

  for (i = 0; i < 2; ++i) {
    struct nbd_handle *h = nbd_create ();
    struct early e = { .err = -1 };

    CHECK (h != NULL);
    CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
    CHECK (nbd_add_meta_context (h, "x-ext:inverse") == 0);
    cur_nids = nids[i];
    snprintf (what, sizeof what, "filter of %zu names", nids[i]);
    run_case (what, h, &e, start_filter);
  }
}

int
main (int argc, char *argv[])
{
  if (argc != 2)
    FAIL ("usage: %s write|filter", argv[0]);
  say_library ();
  if (strcmp (argv[1], "write") == 0)
    writes ();
  else if (strcmp (argv[1], "filter") == 0)
    filters ();
  else
    FAIL ("unknown scenario %s", argv[1]);
  return EXIT_SUCCESS;
}
