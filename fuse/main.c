/* main.c: nbdfuse's command line, the connections, the mount and the
 * FUSE loop.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "human-size.h"
#include "list-options.h"
#include "version.h"
#include "nbdfuse.h"
#include "usage-error.h"

struct nbdfuse nf = {
  .policy = RECONNECT_POLICY_INIT,
  .replay_bound = 64 * 1024 * 1024,
};

enum {
  HELP_OPTION = CHAR_MAX + 1, FUSE_HELP_OPTION, LONG_OPTIONS, SHORT_OPTIONS,
  RECONNECT, RECONNECT_BUFFER, RECONNECT_DELAY, REQUEST_TIMEOUT, NO_REPLAY,
};

/* Set by an option that only makes sense with --reconnect. */
static const char *needs_reconnect;

/* "+": stop at the mountpoint, the first word that is not an option;
 * what follows it is the mode's, [ nbdkit -f ... ] for example.
 */
static const char short_options[] = "+C:do:P:rsvV";
static const struct option long_options[] = {
  { "fuse-help", no_argument, NULL, FUSE_HELP_OPTION },
  { "help", no_argument, NULL, HELP_OPTION },
  { "long-options", no_argument, NULL, LONG_OPTIONS },
  { "short-options", no_argument, NULL, SHORT_OPTIONS },
  { "connections", required_argument, NULL, 'C' },
  { "no-replay", no_argument, NULL, NO_REPLAY },
  { "pidfile", required_argument, NULL, 'P' },
  { "pid-file", required_argument, NULL, 'P' },
  { "readonly", no_argument, NULL, 'r' },
  { "read-only", no_argument, NULL, 'r' },
  { "reconnect", required_argument, NULL, RECONNECT },
  { "reconnect-buffer", required_argument, NULL, RECONNECT_BUFFER },
  { "reconnect-delay", required_argument, NULL, RECONNECT_DELAY },
  { "request-timeout", required_argument, NULL, REQUEST_TIMEOUT },
  { "verbose", no_argument, NULL, 'v' },
  { "version", no_argument, NULL, 'V' },
  { NULL, 0, NULL, 0 }
};

static void __attribute__ ((noreturn))
usage (FILE *fp, int status)
{
  fprintf (fp,
"Mount an NBD server as a file:\n"
"\n"
"  nbdfuse [-C N|--connections N] [-d] [-o FUSE-OPTION] [-P PIDFILE]\n"
"          [-r] [-s] [-v] [--reconnect=SECONDS [--reconnect-delay=MIN:MAX]\n"
"          [--request-timeout=SECONDS] [--reconnect-buffer=SIZE]]\n"
"          MOUNTPOINT[/FILENAME] URI\n"
"\n"
"Other ways to reach the server:\n"
"  nbdfuse MOUNTPOINT[/FILENAME] [ CMD [ARGS ...] ]\n"
"  nbdfuse MOUNTPOINT[/FILENAME] --command CMD [ARGS ...]\n"
"  nbdfuse MOUNTPOINT[/FILENAME] --fd N\n"
"  nbdfuse MOUNTPOINT[/FILENAME] --tcp HOST PORT\n"
"  nbdfuse MOUNTPOINT[/FILENAME] --unix SOCKET\n"
"  nbdfuse MOUNTPOINT[/FILENAME] --vsock CID PORT\n"
"\n"
"Unmount with:\n"
"  fusermount3 -u MOUNTPOINT\n"
"\n"
"Other forms:\n"
"  nbdfuse --help\n"
"  nbdfuse --fuse-help\n"
"  nbdfuse -V|--version\n"
"\n"
"Please read the nbdfuse(1) manual page for full usage.\n");
  exit (status);
}

/* Every bad command line ends here. */
#define bad_usage(...) usage_error ("nbdfuse", __VA_ARGS__)

/* The options -o takes, as libfuse lists them. */
static void __attribute__ ((noreturn))
fuse_help (void)
{
  struct fuse_args args = FUSE_ARGS_INIT (0, NULL);

  printf ("FUSE options for -o:\n");
  fflush (stdout);
  if (fuse_opt_add_arg (&args, "nbdfuse") == 0)
    fuse_lib_help (&args);
  fuse_opt_free_args (&args);
  exit (EXIT_SUCCESS);
}

static unsigned
parse_connections (const char *arg)
{
  char *end;
  unsigned long n;

  errno = 0;
  n = strtoul (arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 ||
      n < 1 || n > 1024)
    bad_usage ("--connections: must be a number from 1 to 1024: '%s'", arg);
  return n;
}

static void
parse_reconnect_option (int c, const char *arg)
{
  const char *err;
  int64_t size;

  switch (c) {
  case RECONNECT:
    nf.policy.window =
      reconnect_option_seconds ("nbdfuse", "--reconnect", arg);
    return;
  case REQUEST_TIMEOUT:
    nf.policy.request_timeout =
      reconnect_option_seconds ("nbdfuse", "--request-timeout", arg);
    return;
  case RECONNECT_DELAY:
    reconnect_option_delay ("nbdfuse", arg, &nf.policy);
    needs_reconnect = "--reconnect-delay";
    return;
  case RECONNECT_BUFFER:
    size = human_size_parse (arg, &err);
    if (size == -1)
      bad_usage ("--reconnect-buffer: %s: '%s'", err, arg);
    if (size < 1024 * 1024)
      bad_usage ("--reconnect-buffer: must be at least 1M: '%s'", arg);
    nf.replay_bound = size;
    needs_reconnect = "--reconnect-buffer";
    return;
  case NO_REPLAY:
    nf.no_replay = true;
    needs_reconnect = "--no-replay";
    return;
  }
}

/* After the options: what --reconnect implies, and what it needs. */
static void
check_reconnect_options (void)
{
  if (needs_reconnect && nf.policy.window <= 0)
    bad_usage ("%s needs --reconnect", needs_reconnect);
  reconnect_policy_finish (&nf.policy);
}

static bool
is_type (const char *path, mode_t type)
{
  struct stat st;

  return stat (path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

/* MOUNTPOINT (a regular file: the file itself is mounted over),
 * MOUNTPOINT (a directory: the file is MOUNTPOINT/nbd) or
 * MOUNTPOINT/FILENAME.  Returns the directory or file to mount on.
 */
static char *
parse_mountpoint (const char *s)
{
  const char *slash = strrchr (s, '/');
  char *mp;

  if (is_type (s, S_IFREG)) {
    nf.file_mode = true;
    nf.filename = slash ? slash + 1 : s;
    mp = strdup (s);
  }
  else if (is_type (s, S_IFDIR)) {
    nf.filename = "nbd";
    mp = strdup (s);
  }
  else {
    if (slash == NULL || slash[1] == '\0' || strcmp (slash, "/.") == 0 ||
        strcmp (slash, "/..") == 0)
      goto bad;
    nf.filename = slash + 1;
    mp = slash == s ? strdup ("/") : strndup (s, slash - s);
  }
  if (mp == NULL) {
    perror ("nbdfuse: strdup");
    exit (EXIT_FAILURE);
  }
  if (nf.file_mode || is_type (mp, S_IFDIR))
    return mp;
  free (mp);
 bad:
  bad_usage ("%s: the mountpoint must be a directory, \"directory/filename\" "
             "or a regular file", s);
}

/* The word after the mountpoint selects the mode (and is used up, 1)
 * or is the URI (0).
 */
static int
parse_mode (const char *word, enum mode *mode)
{
  static const struct { const char *name; enum mode mode; } modes[] = {
    { "[", MODE_SQUARE_BRACKET },
    { "--command", MODE_COMMAND }, { "--cmd", MODE_COMMAND },
    { "--socket-activation", MODE_SOCKET_ACTIVATION },
    { "--systemd-socket-activation", MODE_SOCKET_ACTIVATION },
    { "--fd", MODE_FD }, { "--tcp", MODE_TCP }, { "--unix", MODE_UNIX },
    { "--vsock", MODE_VSOCK }, { "--uri", MODE_URI },
  };
  size_t i;

  for (i = 0; i < sizeof modes / sizeof modes[0]; ++i)
    if (strcmp (word, modes[i].name) == 0) {
      *mode = modes[i].mode;
      return 1;
    }
  if (word[0] == '-')
    bad_usage ("unknown mode: %s", word);
  *mode = MODE_URI;
  return 0;
}

/* Check the number of words ARGS (N of them) the mode has. */
static void
check_mode_args (enum mode mode, char **args, int n)
{
  int want;

  switch (mode) {
  case MODE_SQUARE_BRACKET:
    if (n < 2 || strcmp (args[n - 1], "]") != 0)
      bad_usage ("[ CMD ARGS ... ]: the command and a closing ']' are "
                 "needed");
    args[n - 1] = NULL;         /* the command ends here */
    return;
  case MODE_SOCKET_ACTIVATION:
  case MODE_COMMAND:
    if (n < 1)
      bad_usage ("a command is needed after the mode");
    return;
  case MODE_URI: case MODE_FD: case MODE_UNIX: want = 1; break;
  case MODE_TCP: case MODE_VSOCK: want = 2; break;
  default: abort ();
  }
  if (n != want)
    bad_usage ("this mode takes %d argument%s, not %d",
               want, want == 1 ? "" : "s", n);
}

/* Connect once, and up to CONNECTIONS times if the mode and the server
 * allow multi-conn.  Learn the export's facts from the first.
 */
static void
connect_all (enum mode mode, char **args, unsigned connections)
{
  struct nbd_handle **handles = malloc (connections * sizeof *handles);
  size_t n = 0;
  int64_t size;

  if (handles == NULL) {
    perror ("nbdfuse: malloc");
    exit (EXIT_FAILURE);
  }
  handles[n++] = connect_server (mode, args);
  if (mode_allows_multi_conn (mode) && nbd_can_multi_conn (handles[0]) == 1)
    while (n < connections)
      handles[n++] = connect_server (mode, args);
  if (nf.verbose)
    fprintf (stderr, "nbdfuse: connections=%zu\n", n);

  size = nbd_get_size (handles[0]);
  if (size == -1) {
    fprintf (stderr, "nbdfuse: %s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  nf.size = size;
  if (nbd_is_read_only (handles[0]) == 1)
    nf.readonly = true;
  nf.can_flush = nbd_can_flush (handles[0]) == 1;
  nf.can_zero = nbd_can_zero (handles[0]) == 1;
  /* What a new connection must find again. */
  if (nf.policy.window > 0 && export_facts_read (handles[0], &nf.facts) == -1) {
    fprintf (stderr, "nbdfuse: %s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  start_connections (handles, n);
  free (handles);
}

/* Written once the mount is in place, for scripts that wait for it:
 * all at once, under a temporary name first.
 */
static int
write_pidfile (const char *pidfile)
{
  char *tmp;
  FILE *fp;
  int r = -1;

  if (asprintf (&tmp, "%s.tmp", pidfile) == -1)
    return -1;
  fp = fopen (tmp, "w");
  if (fp != NULL) {
    fprintf (fp, "%ld\n", (long) getpid ());
    if (fclose (fp) == 0 && rename (tmp, pidfile) == 0)
      r = 0;
  }
  if (r == -1)
    fprintf (stderr, "nbdfuse: %s: %m\n", pidfile);
  unlink (tmp);
  free (tmp);
  return r;
}

/* fuse_loop and fuse_loop_mt return 0 when unmounted, the signal's
 * number after SIGINT, SIGTERM or SIGHUP, or -errno.
 */
static int
run_loop (struct fuse *fuse, bool singlethread)
{
  struct fuse_loop_config config = { .clone_fd = 0, .max_idle_threads = 10 };
  int r;

  r = singlethread ? fuse_loop (fuse) : fuse_loop_mt (fuse, &config);
  if (r < 0) {
    fprintf (stderr, "nbdfuse: fuse_loop: %s\n", strerror (-r));
    return -1;
  }
  if (r > 0 && nf.verbose)
    fprintf (stderr, "nbdfuse: unmounting on signal %d\n", r);
  return 0;
}

/* The signals that end the FUSE loop, and libfuse's handlers for
 * them.  The loop then waits for the requests being served, so
 * ours also tells the connections to give up on a server that does
 * not reply.
 */
static const int exit_signals[] = { SIGHUP, SIGINT, SIGTERM };
#define NR_EXIT_SIGNALS (sizeof exit_signals / sizeof exit_signals[0])
static struct sigaction fuse_actions[NR_EXIT_SIGNALS];

static void
on_exit_signal (int sig)
{
  size_t i;

  for (i = 0; i < NR_EXIT_SIGNALS; ++i)
    if (exit_signals[i] == sig)
      fuse_actions[i].sa_handler (sig);
  abandon_connections ();
}

/* After fuse_set_signal_handlers: wrap the handlers libfuse set (it
 * leaves an ignored signal alone, and so do we).
 */
static void
wrap_signal_handlers (void)
{
  size_t i;

  for (i = 0; i < NR_EXIT_SIGNALS; ++i) {
    struct sigaction sa;

    sigaction (exit_signals[i], NULL, &fuse_actions[i]);
    if (fuse_actions[i].sa_flags & SA_SIGINFO ||
        fuse_actions[i].sa_handler == SIG_IGN ||
        fuse_actions[i].sa_handler == SIG_DFL)
      continue;
    sa = fuse_actions[i];
    sa.sa_handler = on_exit_signal;
    sigaction (exit_signals[i], &sa, NULL);
  }
}

/* Put libfuse's handlers back, which fuse_remove_signal_handlers
 * looks for.
 */
static void
unwrap_signal_handlers (void)
{
  size_t i;

  for (i = 0; i < NR_EXIT_SIGNALS; ++i) {
    struct sigaction cur;

    sigaction (exit_signals[i], NULL, &cur);
    if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == on_exit_signal)
      sigaction (exit_signals[i], &fuse_actions[i], NULL);
  }
}

/* Mount on MOUNTPOINT, serve until unmounted or signalled, unmount. */
static int
serve (struct fuse_args *args, const char *mountpoint, const char *pidfile,
       bool singlethread)
{
  struct fuse *fuse;
  struct fuse_session *se;
  int r = -1;

  fuse = fuse_new (args, &nbdfuse_operations, sizeof nbdfuse_operations,
                   NULL);
  if (fuse == NULL)
    return -1;                  /* libfuse said why */
  se = fuse_get_session (fuse);
  if (fuse_set_signal_handlers (se) == -1)
    goto out;
  wrap_signal_handlers ();
  if (fuse_mount (fuse, mountpoint) == -1)
    goto out_signals;
  /* From here the mount must be undone before exiting. */
  if (pidfile == NULL || write_pidfile (pidfile) == 0)
    r = run_loop (fuse, singlethread);
  fuse_unmount (fuse);
 out_signals:
  unwrap_signal_handlers ();
  fuse_remove_signal_handlers (se);
 out:
  fuse_destroy (fuse);
  return r;
}

int
main (int argc, char *argv[])
{
  struct fuse_args fuse_args = FUSE_ARGS_INIT (0, NULL);
  unsigned connections = 4;
  const char *pidfile = NULL;
  bool singlethread = false;
  char *mountpoint;
  enum mode mode;
  int c, r;

  if (fuse_opt_add_arg (&fuse_args, "nbdfuse") == -1)
    goto nomem;
  while ((c = getopt_long (argc, argv, short_options, long_options,
                           NULL)) != -1) {
    switch (c) {
    case HELP_OPTION:
      usage (stdout, EXIT_SUCCESS);
    case FUSE_HELP_OPTION:
      fuse_help ();
    case LONG_OPTIONS:
      list_long_options (long_options);
    case SHORT_OPTIONS:
      list_short_options (short_options + 1); /* not the "+" */
    case 'C':
      connections = parse_connections (optarg);
      break;
    case 'o':
      if (fuse_opt_add_arg (&fuse_args, "-o") == -1 ||
          fuse_opt_add_arg (&fuse_args, optarg) == -1)
        goto nomem;
      break;
    case 'P':
      pidfile = optarg;
      break;
    case 'r':
      nf.readonly = true;
      break;
    case 's':
      singlethread = true;
      break;
    case 'd': case 'v':
      nf.verbose = true;
      break;
    case 'V':
      print_version ("nbdfuse");
      exit (EXIT_SUCCESS);
    case RECONNECT: case RECONNECT_BUFFER: case RECONNECT_DELAY:
    case REQUEST_TIMEOUT: case NO_REPLAY:
      parse_reconnect_option (c, optarg);
      break;
    default:
      fprintf (stderr, "Try 'nbdfuse --help' for usage.\n");
      exit (EXIT_FAILURE);
    }
  }
  check_reconnect_options ();
  if (argc - optind < 2)
    bad_usage ("a mountpoint and a server are needed");

  mountpoint = parse_mountpoint (argv[optind++]);
  optind += parse_mode (argv[optind], &mode);
  check_mode_args (mode, &argv[optind], argc - optind);
  if (nf.policy.window > 0 && !mode_can_dial_again (mode))
    bad_usage ("--reconnect: a server reached through a subprocess or a "
               "passed file descriptor cannot be connected to again: use a "
               "URI, --unix, --tcp or --vsock");
  nf.mode = mode;
  nf.mode_args = &argv[optind];

  connect_all (mode, &argv[optind], connections);
  clock_gettime (CLOCK_REALTIME, &nf.start_time);
  r = serve (&fuse_args, mountpoint, pidfile, singlethread);
  fuse_opt_free_args (&fuse_args);
  free (mountpoint);
  if (stop_connections () == -1)
    r = -1;
  if (nf.policy.window > 0) {
    outage_print_stats ();
    if (outage_export_changed ())
      exit (EXIT_EXPORT_CHANGED);
  }
  exit (r == 0 ? EXIT_SUCCESS : EXIT_FAILURE);

 nomem:
  perror ("nbdfuse");
  exit (EXIT_FAILURE);
}
