/* diff-lifetime.c: commands queued, being sent and in flight when the
 * program asks about them, shuts down, closes, or the connection dies
 * (diff.tap runs it on our library and on libnbd 1.22.2).
 *
 * Usage: diff-lifetime SCENARIO (see the table at the end).
 */
#include <config.h>

#include "diff-common.h"

/* Small enough that a 1 MiB write blocks half-way. */
#define SNDBUF 4096

/* The completions that ran, in order, by name. */
static char order[8192];
static size_t ran;

struct cmd {
  char name[16];
  int err;                      /* -1 until the completion runs */
};

static int
record (void *user_data, int *error)
{
  struct cmd *c = user_data;
  size_t n = strlen (order);

  c->err = *error;
  ran++;
  if (n + strlen (c->name) + 2 < sizeof order)
    snprintf (order + n, sizeof order - n, "%s%s", n ? " " : "", c->name);
  return 1;
}

static nbd_completion_callback
completion (struct cmd *c)
{
  return (nbd_completion_callback) { .callback = record, .user_data = c };
}

/* The errors the completions of C[0..N) saw, as "NAME xCOUNT" runs. */
static void
say_errors (const char *what, struct cmd *c, size_t n)
{
  char out[4096] = "";
  size_t i, run = 0, used = 0;

  for (i = 0; i <= n; ++i) {
    if (run > 0 && (i == n || c[i].err != c[i - 1].err)) {
      used += snprintf (out + used, sizeof out - used, " %s x%zu",
                        c[i - 1].err == -1 ? "not-run" :
                        errname (c[i - 1].err), run);
      run = 0;
    }
    run++;
  }
  say ("%s:%s", what, out);
}

/* The distinct errors of the completions that failed, in order. */
static void
say_error_kinds (const char *what, struct cmd *c, size_t n)
{
  char out[1024] = "";
  size_t i, used = 0;
  const char *e;

  for (i = 0; i < n; ++i) {
    if (c[i].err == 0)
      continue;
    e = c[i].err == -1 ? "not-run" : errname (c[i].err);
    if (strstr (out, e) == NULL)
      used += snprintf (out + used, sizeof out - used, " %s", e);
  }
  say ("%s:%s", what, out);
}

/* How many writes fake-server logged; the log is then removed, as its
 * length depends on the library's send buffer, not on what this
 * scenario compares.
 */
static size_t
take_logged_writes (void)
{
  const char *name = getenv ("FAKE_SERVER_LOG");
  char line[256];
  size_t n = 0;
  FILE *fp;

  if (name == NULL || (fp = fopen (name, "r")) == NULL)
    return 0;
  while (fgets (line, sizeof line, fp))
    n += strncmp (line, "request type 1 ", 15) == 0;
  fclose (fp);
  unlink (name);
  return n;
}

static struct nbd_handle *
connect_script (const char *target, const char *tokens)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) target, (char *) tokens, NULL };
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server: %s", nbd_get_error ());
  return h;
}

/* 27.2: every cookie of 2000 reads the server holds is still
 * outstanding (0), nbd_close completes them all with ENOTCONN.
 */
#define NR_QUEUED 2000
static void
completed_queued (void)
{
  static struct cmd c[NR_QUEUED];
  static int64_t cookie[NR_QUEUED];
  static char buf[512];
  struct nbd_handle *h = connect_script ("read", "hold");
  size_t i, counts[3] = { 0 };
  int r;

  for (i = 0; i < NR_QUEUED; ++i) {
    c[i].err = -1;
    cookie[i] = nbd_aio_pread (h, buf, sizeof buf, 0, completion (&c[i]), 0);
    CHECK (cookie[i] > 0);
  }
  for (i = 0; i < NR_QUEUED; ++i) {
    r = nbd_aio_command_completed (h, cookie[i]);
    counts[r + 1]++;
  }
  say ("nbd_aio_command_completed: -1 x%zu, 0 x%zu, 1 x%zu",
       counts[0], counts[1], counts[2]);
  say_result ("nbd_aio_in_flight", nbd_aio_in_flight (h));
  nbd_close (h);
  say_errors ("completions after nbd_close", c, NR_QUEUED);
}

/* 27.7: nbd_aio_command_completed with a cookie never issued, one
 * retired, and one done but not yet retired.
 */
static void
completed_unknown (void)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "good",
                   NULL };
  struct nbd_handle *h = nbd_create ();
  static char buf[512];
  int64_t cookie;

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, args) == 0);
  say_result ("never issued", nbd_aio_command_completed (h, 12345));
  say_result ("cookie 0", nbd_aio_command_completed (h, 0));
  cookie = nbd_aio_pread (h, buf, sizeof buf, 0, NBD_NULL_COMPLETION, 0);
  CHECK (cookie > 0);
  while (nbd_aio_peek_command_completed (h) <= 0)
    CHECK (nbd_poll (h, 5000) == 1);
  say_result ("done, not retired", nbd_aio_command_completed (h, cookie));
  say_result ("retired", nbd_aio_command_completed (h, cookie));
  say_result ("nbd_aio_peek_command_completed",
              nbd_aio_peek_command_completed (h));
  nbd_close (h);
}

/* Three 4 KiB reads in flight (sent; the server read the first and
 * waits for its cue), then four 1 MiB writes: the first being sent,
 * blocked on the small send buffer, the rest queued.
 */
static struct cmd cmds[7];

static struct nbd_handle *
start_mid_send (struct cue *cue, pid_t *pid, uint64_t *sent_after_handshake)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "read", (char *) "wait close", NULL };
  static char rbuf[4096], wbuf[1 << 20];
  struct nbd_handle *h = nbd_create ();
  int i, r;

  CHECK (h != NULL);
  cue_init (cue);
  *pid = start_on_socketpair (h, args, SNDBUF, cue, NULL, &r);
  CHECK (r == 0);
  *sent_after_handshake = nbd_stats_bytes_sent (h);
  for (i = 0; i < 7; ++i) {
    snprintf (cmds[i].name, sizeof cmds[i].name, "%c%d",
              i < 3 ? 'r' : 'w', i < 3 ? i : i - 3);
    cmds[i].err = -1;
    if (i < 3)
      CHECK (nbd_aio_pread (h, rbuf, sizeof rbuf, i * 4096,
                            completion (&cmds[i]), 0) > 0);
    else
      CHECK (nbd_aio_pwrite (h, wbuf, sizeof wbuf, 0,
                             completion (&cmds[i]), 0) > 0);
  }
  return h;
}

static bool
all_ran (void *arg)
{
  return ran == 7;
}

/* 27.6: the server hangs up with all three kinds outstanding.  Ours
 * sends the requests queued behind the first at the next poll, so
 * poll until the first write has begun to leave (past four request
 * headers, of either size): else the server could hang up before the
 * batch left, and ours fail it as being sent, not in flight.  1.22
 * sent them at issue, and does not poll here.
 */
static void
die_mid_send (void)
{
  struct cue cue;
  pid_t pid;
  uint64_t hs;
  struct nbd_handle *h = start_mid_send (&cue, &pid, &hs);

  while (nbd_stats_bytes_sent (h) - hs <= 4 * 32)
    if (nbd_poll (h, 100) == -1)
      FAIL ("nbd_poll before the cue: %s", nbd_get_error ());
  cue_send (&cue);
  say_result ("the last nbd_poll", diff_poll_until (h, all_ran, NULL));
  say_state ("then", h);
  say ("completions in order: %s", order);
  say_errors ("their errors", cmds, 7);
  nbd_close (h);
  reap (pid);
}

/* 27.6: nbd_close with all three kinds outstanding. */
static void
close_mid_send (void)
{
  struct cue cue;
  pid_t pid;
  uint64_t hs;
  struct nbd_handle *h = start_mid_send (&cue, &pid, &hs);

  nbd_close (h);
  say ("completions in order: %s", order);
  say_errors ("their errors", cmds, 7);
  cue_send (&cue);
  reap (pid);
}

/* 27.5: 2000 writes of 512 bytes (small enough to be gathered) to a
 * server that read the first and then waits (abandon-gathered: then
 * reads 50 more, so that the library sends, and gathers, again, and
 * waits again); nbd_shutdown (ABANDON_PENDING) while the rest block.  Only a
 * request already begun may still go out: count, from what the library
 * had written to the socket, how many had begun, and compare with how
 * many the server got.
 */
#define NR_WRITES 2000
#define WLEN 512
#define REQ_SIZE (28 + WLEN)    /* compact header + payload */
static void
abandon (bool regather)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "write",
                   (char *) (regather ? "wait serve:50 tell wait" : "wait"),
                   NULL };
  static struct cmd c[NR_WRITES];
  static char wbuf[WLEN];
  struct nbd_handle *h = nbd_create ();
  struct cue cue, tell;
  uint64_t hs, sent, begun;
  int64_t extra;
  size_t i;
  pid_t pid;
  int r;

  CHECK (h != NULL);
  CHECK (nbd_set_request_extended_headers (h, false) == 0);
  cue_init (&cue);
  cue_init (&tell);
  pid = start_on_socketpair (h, args, SNDBUF, &cue, &tell, &r);
  CHECK (r == 0);
  hs = nbd_stats_bytes_sent (h);
  for (i = 0; i < NR_WRITES; ++i) {
    c[i].err = -1;
    snprintf (c[i].name, sizeof c[i].name, "w%zu", i);
    CHECK (nbd_aio_pwrite (h, wbuf, WLEN, 0, completion (&c[i]), 0) > 0);
  }
  if (regather) {
    /* The server reads 50 more, then stops again: meanwhile the
     * library sends what the queue holds, as much as it can.
     */
    cue_send (&cue);
    while (!told (&tell))
      if (nbd_poll (h, 100) == -1)
        FAIL ("nbd_poll: %s", nbd_get_error ());
  }
  sent = nbd_stats_bytes_sent (h) - hs;
  begun = (sent + REQ_SIZE - 1) / REQ_SIZE;
  /* nbd_shutdown blocks until its request is sent, so the server must
   * read again first; the library writes nothing until the call.
   */
  cue_send (&cue);
  say_result ("nbd_shutdown", nbd_shutdown (h,
                                            LIBNBD_SHUTDOWN_ABANDON_PENDING));
  while (!nbd_aio_is_closed (h) && !nbd_aio_is_dead (h))
    if (nbd_poll (h, 5000) <= 0)
      break;
  say_state ("then", h);
  /* How many of the begun writes get their reply before the server
   * sees NBD_CMD_DISC is a race: not printed.
   */
  nbd_close (h);
  say_error_kinds ("the errors of the others", c, NR_WRITES);
  reap (pid);
  /* The request the library was issuing may not have had a byte
   * accepted yet (the socket full): 1.22 keeps it, and it is not
   * counted as begun, so one more is allowed.
   */
  extra = (int64_t) take_logged_writes () - (int64_t) begun;
  if (extra == 0 || extra == 1)
    say ("writes the server received beyond those begun: "
         "at most the one being issued");
  else
    say ("writes the server received beyond those begun: %" PRIi64, extra);
}

static void abandon_pending (void) { abandon (false); }
static void abandon_gathered (void) { abandon (true); }

static const struct diff_scenario scenarios[] = {
  { "completed-queued", completed_queued },
  { "completed-unknown", completed_unknown },
  { "die-mid-send", die_mid_send },
  { "close-mid-send", close_mid_send },
  { "abandon-pending", abandon_pending },
  { "abandon-gathered", abandon_gathered },
};

int
main (int argc, char *argv[])
{
  return diff_main (argc, argv, scenarios,
                    sizeof scenarios / sizeof scenarios[0]);
}
