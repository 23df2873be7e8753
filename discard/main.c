/* main.c: the command line of nbddiscard and nbdzero, the connection,
 * what the server must offer, and the exit status.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list-options.h"
#include "nbddiscard.h"
#include "version.h"

static struct nbd_handle *nbd;  /* closed at exit, even on errors, so a
                                   server run by socket activation ends */
static char *target;            /* the URI or "[ CMD ARGS ... ]" */

static void __attribute__ ((noreturn))
usage (FILE *f, int status)
{
  fprintf (f,
"\n"
"%s the data of an NBD export%s:\n"
"\n"
"    %s [OPTIONS ...] NBD-URI | [ CMD ARGS ... ]\n"
"\n"
"Options:\n"
"    -o N, --offset=N     start at byte N, not at the start of the disk\n"
"    -l N, --length=N     erase N bytes, not up to the end of the disk\n"
"                         (N may have a suffix: 512, 4K, 1M, 2G ...)\n"
"    -z, --zero           zero blocks instead of discarding them%s\n"
"    --fast-zero          zero only if the server can do it fast\n"
"                         (implies --zero)\n"
"    -c, --check          only check that the range is already %s\n"
"    -y, --yes            do not ask before erasing (dangerous)\n"
"    -q, --quiet          print no warnings\n"
"    -v, --verbose        print libnbd's debug messages\n"
"\n"
"Other options:\n"
"\n"
"    %s --help\n"
"    %s --version\n"
"\n"
"Examples:\n"
"\n"
"    %s nbd://localhost\n"
"    %s -y -o 1M -l 1M -- [ qemu-nbd -f qcow2 disk.qcow2 ]\n"
"\n"
"Please read the %s(1) manual page for full usage.\n"
"\n",
           zero_by_default ? "Zero" : "Discard",
           zero_by_default ? "" : " (or zero it)",
           progname,
           zero_by_default ? " (always on)" : "",
           zero_by_default ? "zero" : "sparse (-z: zero)",
           progname, progname, progname, progname, progname);
  exit (status);
}

/* A bad command line: status 2, as libnbd 1.24's tools exit with. */
static void __attribute__ ((noreturn))
bad_usage (void)
{
  fprintf (stderr, "Try '%s --help' for usage.\n", progname);
  exit (2);
}

void
die_nbd (void)
{
  fprintf (stderr, "%s: %s\n", progname, nbd_get_error ());
  exit (EXIT_FAILURE);
}

static void __attribute__ ((noreturn))
die (const char *msg)
{
  fprintf (stderr, "%s: %s\n", progname, msg);
  exit (EXIT_FAILURE);
}

static void
close_handle (void)
{
  if (nbd)
    nbd_close (nbd);
  nbd = NULL;
  free (target);
  target = NULL;
}

/* "[ CMD ARGS ... ]": the words of ARGV (which ends with "]") joined. */
static char *
join_words (char **argv)
{
  size_t len = 1, i;
  char *s;

  for (i = 0; argv[i]; i++)
    len += strlen (argv[i]) + 1;
  s = malloc (len);
  if (s == NULL)
    return NULL;
  s[0] = '\0';
  for (i = 0; argv[i]; i++) {
    if (i > 0)
      strcat (s, " ");
    strcat (s, argv[i]);
  }
  return s;
}

/* Whether ARGV (ARGC words) is [ CMD ARGS ... ] rather than one URI;
 * sets TARGET to the words the question names.  A bad count exits.
 */
static bool
choose_target (int argc, char **argv)
{
  bool command = argc >= 3 && strcmp (argv[0], "[") == 0 &&
                 strcmp (argv[argc - 1], "]") == 0;

  if (argc == 0) {
    fprintf (stderr, "%s: NBD-URI is required.  See --help or %s(1) "
             "man page.\n", progname, progname);
    exit (EXIT_FAILURE);
  }
  if (argc > 1 && !command) {
    fprintf (stderr, "%s: expected one NBD URI or [ CMD ARGS ... ]\n",
             progname);
    bad_usage ();
  }
  target = command ? join_words (argv) : strdup (argv[0]);
  if (target == NULL)
    die (strerror (errno));
  return command;
}

/* Connect to ARGV[0], a URI, or to the server command ARGV[1..] when
 * the arguments are [ CMD ARGS ... ].
 */
static void
connect_to (const struct options *opts, int argc, char **argv)
{
  bool command = choose_target (argc, argv);
  int r;

  nbd = nbd_create ();
  if (nbd == NULL)
    die_nbd ();
  /* A URI may name a TLS PSK file, as libnbd's own tools allow. */
  nbd_set_uri_allow_local_file (nbd, true);
  if (opts->verbose && nbd_set_debug (nbd, true) == -1)
    die_nbd ();
  if (nbd_add_meta_context (nbd, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1)
    die_nbd ();
  if (command) {
    argv[argc - 1] = NULL;
    r = nbd_connect_systemd_socket_activation (nbd, &argv[1]);
  }
  else
    r = nbd_connect_uri (nbd, argv[0]);
  if (r == -1)
    die_nbd ();
}

/* What the server must offer for what was asked; returns the flags of
 * the zero requests.  Checked before the size, in 1.24's order.
 */
static uint32_t
check_server (const struct options *opts)
{
  bool block_status = nbd_can_meta_context (nbd,
                                      LIBNBD_CONTEXT_BASE_ALLOCATION) == 1;

  if (opts->verbose) {
    printf ("extended headers = %s\n",
            nbd_get_extended_headers_negotiated (nbd) == 1
            ? "True" : "False");
    printf ("block status = %s\n", block_status ? "True" : "False");
  }
  if (opts->check) {
    if (!block_status)
      die ("this server does not support the block status operation");
    return 0;
  }
  if (!opts->zero) {
    if (nbd_can_trim (nbd) != 1)
      die ("this server does not support the trim/discard operation");
    return 0;
  }
  if (nbd_can_zero (nbd) != 1)
    die ("this server does not support the zero operation");
  if (!opts->fast_zero)
    return 0;
  if (nbd_can_fast_zero (nbd) != 1)
    die ("fast zeroing is not supported by this server");
  return LIBNBD_CMD_FLAG_FAST_ZERO;
}

enum { HELP_OPTION = CHAR_MAX + 1, FAST_ZERO_OPTION,
       LONG_OPTIONS, SHORT_OPTIONS };

/* In alphabetical order, so that --long-options and --short-options
 * list them as 1.24's tools do.
 */
static const char short_options[] = "Vchl:o:qvyz";
static const struct option long_options[] = {
  { "check", no_argument, NULL, 'c' },
  { "fast-zero", no_argument, NULL, FAST_ZERO_OPTION },
  { "help", no_argument, NULL, HELP_OPTION },
  { "length", required_argument, NULL, 'l' },
  { "long-options", no_argument, NULL, LONG_OPTIONS },
  { "offset", required_argument, NULL, 'o' },
  { "quiet", no_argument, NULL, 'q' },
  { "short-options", no_argument, NULL, SHORT_OPTIONS },
  { "verbose", no_argument, NULL, 'v' },
  { "version", no_argument, NULL, 'V' },
  { "yes", no_argument, NULL, 'y' },
  { "zero", no_argument, NULL, 'z' },
  { NULL, 0, NULL, 0 }
};

static void
parse_options (struct options *opts, int argc, char **argv)
{
  int c;

  argv[0] = (char *) progname;  /* getopt's messages name the program */
  while ((c = getopt_long (argc, argv, short_options, long_options,
                           NULL)) != -1) {
    switch (c) {
    case 'h': case HELP_OPTION: usage (stdout, EXIT_SUCCESS);
    case LONG_OPTIONS: list_long_options (long_options);
    case SHORT_OPTIONS: list_short_options (short_options);
    case 'V': print_version (progname); exit (EXIT_SUCCESS);
    case 'c': opts->check = true; break;
    case FAST_ZERO_OPTION: opts->fast_zero = true; break;
    case 'l':
      opts->have_length = true;
      opts->length = parse_size (optarg);
      break;
    case 'o':
      opts->have_offset = true;
      opts->offset = parse_size (optarg);
      break;
    case 'q': opts->quiet = true; break;
    case 'v': opts->verbose = true; break;
    case 'y': opts->yes = true; break;
    case 'z': opts->zero = true; break;
    default: bad_usage ();
    }
  }
  if (opts->fast_zero && !opts->zero) {
    if (opts->verbose)
      printf ("--fast implies --zero\n");
    opts->zero = true;
  }
}

int
main (int argc, char *argv[])
{
  struct options opts = { .zero = zero_by_default };
  uint64_t offset, length;
  uint32_t flags;
  int64_t size;
  int status = EXIT_SUCCESS;

  parse_options (&opts, argc, argv);
  atexit (close_handle);
  connect_to (&opts, argc - optind, &argv[optind]);
  flags = check_server (&opts);
  size = nbd_get_size (nbd);
  if (size == -1)
    die_nbd ();
  if (!fit_range (&opts, (uint64_t) size, &offset, &length))
    ;
  else if (opts.check)
    status = check_range (nbd, &opts, offset, length);
  else if (length == 0)
    ;                           /* nothing to erase, nothing to ask */
  else if (!opts.yes && !confirm (target, offset, length))
    die ("operation cancelled");
  else
    erase (nbd, opts.zero, flags, offset, length);
  if (nbd_shutdown (nbd, 0) == -1)
    die_nbd ();
  close_handle ();
  if (fflush (stdout) == EOF || ferror (stdout)) {
    fprintf (stderr, "%s: writing the output: %s\n", progname,
             strerror (errno));
    exit (EXIT_FAILURE);
  }
  exit (status);
}
