/* diff-options.c: the handshake and options when the server refuses,
 * hangs up, resets or garbles its reply, and the options of a TCP
 * socket the library connects (diff.tap runs it on our library and on
 * libnbd 1.22.2 and 1.24.4).
 *
 * Usage: diff-options SCENARIO (see the table at the end).
 */
#include <config.h>

#include "diff-common.h"
#include "misbehave-opt.h"

#include <netinet/tcp.h>

/* What one option's closures went through (see misbehave-opt.h). */
static void
say_log (const char *what, const char *name, const struct log *l)
{
  say ("%s %s: events \"%s\", completion error %s", name, what, l->ev,
       l->err == -1 ? "none" : errname (l->err));
}

static bool
completed (const struct log *l)
{
  return strchr (l->ev, 'c') != NULL;
}

static bool
listed_one (const struct log *l)
{
  return strchr (l->ev, 'f') != NULL;
}

/* 27.3 and misbehave-opt-close-pending: nbd_close with each option
 * part-answered and waiting.
 */
static void
close_pending (void)
{
  size_t i;

  for (i = 0; i < NR_OPT_CASES; ++i) {
    const struct opt_case *c = &opt_cases[i];
    struct log l = { .err = -1 };
    struct nbd_handle *h = connect_opt_script ("", c, "hold");

    CHECK (c->start (h, &l) == 0);
    if (c->has_fn)
      poll_until (h, c, listed_one, &l);
    say_log ("before nbd_close", c->name, &l);
    nbd_close (h);
    say_log ("after nbd_close", c->name, &l);
  }
}

/* misbehave-opt-hangup: each option part-answered, then EOF. */
static void
hangup (void)
{
  size_t i;

  for (i = 0; i < NR_OPT_CASES; ++i) {
    const struct opt_case *c = &opt_cases[i];
    struct log l = { .err = -1 };
    struct nbd_handle *h = connect_opt_script ("", c, "close");

    CHECK (c->start (h, &l) == 0);
    poll_until (h, c, completed, &l);
    say_log ("after the hang-up", c->name, &l);
    say_state (c->name, h);
    nbd_close (h);
    say_log ("after nbd_close", c->name, &l);
  }
}

/* Poll until the option completes or the handle dies; print what the
 * program saw.
 */
static void
drive_option (struct nbd_handle *h, const char *name, struct log *l)
{
  int r = 0, idle = 0;

  while (!completed (l) && !nbd_aio_is_dead (h)) {
    r = nbd_poll (h, 100);
    if (r == -1)
      break;
    if (r == 0 && ++idle >= 50)
      FAIL ("%s: nothing happened for 5 seconds", name);
  }
  /* A reply already there when the option was sent is handled inside
   * the nbd_aio_opt_* call, else inside nbd_poll: which one is a race,
   * so a death is told by its error alone, without the call's name.
   */
  if (nbd_aio_is_dead (h)) {
    const char *e = nbd_get_error (), *why = e ? strstr (e, ": ") : NULL;
    say ("the handle died: errno %s: %s", errname (nbd_get_errno ()),
         why ? why + 2 : "(no message)");
  }
  else
    say_result ("the last nbd_poll", r);
  say_state (name, h);
  say_log ("then", name, l);
}

/* 27.4: a real connection reset (TCP, SO_LINGER 0) under NBD_OPT_LIST. */
static void
reset (void)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "list", (char *) "wait reset", NULL };
  struct nbd_handle *h = nbd_create ();
  struct log l = { .err = -1 };
  struct cue cue;
  pid_t pid;
  int r;

  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  cue_init (&cue);
  pid = start_on_tcp (h, args, &cue, &r);
  CHECK (r == 0);
  CHECK (start_list (h, &l) == 0);
  /* The reset comes once the call has returned: under nbd_poll. */
  cue_send (&cue);
  drive_option (h, "reset", &l);
  nbd_close (h);
  reap (pid);
}

/* Nagle on a TCP socket the library connects itself: libnbd 1.22 and
 * 1.24 turn it off (TCP_NODELAY) before connect.
 */
static void
tcp_nodelay (void)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "good",
                   NULL };
  struct nbd_handle *h = nbd_create ();
  int r, v = -1;
  socklen_t len = sizeof v;
  pid_t pid;

  CHECK (h != NULL);
  pid = start_on_tcp (h, args, NULL, &r);
  say_result ("nbd_connect_tcp", r);
  CHECK (getsockopt (nbd_aio_get_fd (h), IPPROTO_TCP, TCP_NODELAY, &v,
                     &len) == 0);
  say ("TCP_NODELAY %s", v ? "on" : "off");
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  reap (pid);
}

/* 27.4: an NBD_REP_SERVER reply that garbles the export name: its
 * name length runs past the reply (malformed), or the reply is too
 * short to hold the length at all (malformed-short).
 */
static void
malformed_reply (const char *reply)
{
  const struct opt_case c = { "list", start_list, "list", reply, true };
  struct log l = { .err = -1 };
  struct nbd_handle *h = connect_opt_script ("", &c, "hold");

  CHECK (start_list (h, &l) == 0);
  drive_option (h, "malformed", &l);
  nbd_close (h);
}

static void
malformed (void)
{
  malformed_reply ("u64:omagic u32:opt u32:2 u32:8 u32:100 str:disk");
}

static void
malformed_short (void)
{
  malformed_reply ("u64:omagic u32:opt u32:2 u32:2 u16:0");
}

/* 28.2: end of file in the handshake, at CMD (a server or not). */
static void
eof_connect (char **args)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  say_result ("nbd_connect_command", nbd_connect_command (h, args));
  say_state ("then", h);
  nbd_close (h);
}

static void
eof_greeting (void)
{
  char *args[] = { (char *) "true", NULL };

  eof_connect (args);
}

static void
eof_option (void)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "go", (char *) "close", NULL };

  eof_connect (args);
}

static void
eof_option_reply (void)
{
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "go", (char *) "u64:omagic close", NULL };

  eof_connect (args);
}

/* 28.3: each NBD_REP_ERR_* as the reply to one option. */
enum call { LIST, GO, INFO, SET_META, CONNECT };

static int
no_list (void *user_data, const char *name, const char *description)
{
  say ("list callback: %s", name);
  return 0;
}

static int
no_context (void *user_data, const char *name)
{
  say ("context callback: %s", name);
  return 0;
}

static void
word (enum call call, const char *tokens)
{
  static const char *target[] = { "list", "go", "info", "meta", "go" };
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) target[call], (char *) tokens, NULL };
  struct nbd_handle *h = nbd_create ();
  int r;

  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  if (call == CONNECT) {
    say_result ("nbd_connect_command", nbd_connect_command (h, args));
    say_state ("then", h);
    nbd_close (h);
    return;
  }
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  switch (call) {
  case LIST:
    r = nbd_opt_list (h, (nbd_list_callback) { .callback = no_list });
    break;
  case GO: r = nbd_opt_go (h); break;
  case INFO: r = nbd_opt_info (h); break;
  default:
    r = nbd_opt_set_meta_context (h, (nbd_context_callback) {
                                    .callback = no_context });
  }
  say_result ("the option", r);
  say_state ("then", h);
  nbd_close (h);
}

static void
words (enum call call)
{
  char tokens[128];
  unsigned e;

  for (e = 1; e <= 10; ++e) {
    snprintf (tokens, sizeof tokens,
              "u64:omagic u32:opt u32:0x%x u32:0", 0x80000000 | e);
    say ("NBD_REP_ERR 0x%x, no message", 0x80000000 | e);
    word (call, tokens);
  }
  say ("NBD_REP_ERR_POLICY with a message");
  word (call, "u64:omagic u32:opt u32:0x80000002 u32:14 str:not-for-you...");
}

static void words_list (void) { words (LIST); }
static void words_go (void) { words (GO); }
static void words_info (void) { words (INFO); }
static void words_set_meta (void) { words (SET_META); }
static void words_connect (void) { words (CONNECT); }

static const struct diff_scenario scenarios[] = {
  { "close-pending", close_pending },
  { "hangup", hangup },
  { "reset", reset },
  { "tcp-nodelay", tcp_nodelay },
  { "malformed", malformed },
  { "malformed-short", malformed_short },
  { "eof-greeting", eof_greeting },
  { "eof-option", eof_option },
  { "eof-option-reply", eof_option_reply },
  { "words-list", words_list },
  { "words-go", words_go },
  { "words-info", words_info },
  { "words-set-meta", words_set_meta },
  { "words-connect", words_connect },
};

int
main (int argc, char *argv[])
{
  return diff_main (argc, argv, scenarios,
                    sizeof scenarios / sizeof scenarios[0]);
}
