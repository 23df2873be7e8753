/* main.c: nbddump's command line, connection and exit status. */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colour-options.h"
#include "human-size.h"
#include "list-options.h"
#include "version.h"
#include "nbddump.h"

const char *progname = "nbddump";
bool colour;

static struct nbd_handle *nbd;  /* closed at exit, even on errors, so a
                                   server run by socket activation ends */

static void __attribute__ ((noreturn))
usage (FILE *f, int status)
{
  fprintf (f,
"\n"
"Print the content of an NBD export as a hexdump:\n"
"\n"
"    nbddump [OPTIONS ...] NBD-URI | [ CMD ARGS ... ]\n"
"\n"
"Options:\n"
"    -n N, --length=N, --limit=N   dump at most N bytes\n"
"    -o N, --offset=N, --skip=N    start at byte N\n"
"    --colour, --color             colours even when not on a terminal\n"
"    --no-colour, --no-color       no colours even on a terminal\n"
"    (N may have a suffix: 512, 4k, 1M, 2G ...)\n"
"\n"
"Other options:\n"
"\n"
"    nbddump --help\n"
"    nbddump --version\n"
"\n"
"Examples:\n"
"\n"
"    nbddump nbd://localhost\n"
"    nbddump -n 512 -- [ qemu-nbd -r -f qcow2 disk.qcow2 ]\n"
"\n"
"Please read the nbddump(1) manual page for full usage.\n"
"\n");
  exit (status);
}

static void
die_nbd (void)
{
  fprintf (stderr, "%s: %s\n", progname, nbd_get_error ());
  exit (EXIT_FAILURE);
}

static uint64_t
parse_size (const char *option, const char *arg)
{
  const char *error;
  int64_t r = human_size_parse (arg, &error);

  if (r == -1) {
    fprintf (stderr, "%s: %s %s: %s\n",
             progname, option, arg, error);
    exit (EXIT_FAILURE);
  }
  return (uint64_t) r;
}

/* Interrupted while colours are on: leave the terminal as it was. */
static void
catch_signal (int sig)
{
  static const char reset[] = "\n\033[0m";
  ssize_t r;

  (void) sig;
  r = write (STDOUT_FILENO, reset, sizeof reset - 1);
  (void) r;
  _exit (EXIT_FAILURE);
}

static void
close_handle (void)
{
  if (nbd)
    nbd_close (nbd);
  nbd = NULL;
}

/* Connect to ARGV[0], a URI, or to the server command ARGV[1..] when
 * the arguments are [ CMD ARGS ... ].
 */
static void
connect_to (int argc, char **argv)
{
  int r;

  nbd = nbd_create ();
  if (nbd == NULL)
    die_nbd ();
  atexit (close_handle);
  /* A URI may name a TLS PSK file, as libnbd's own tools allow. */
  nbd_set_uri_allow_local_file (nbd, true);
  if (nbd_add_meta_context (nbd, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1)
    die_nbd ();
  if (argc >= 3 && strcmp (argv[0], "[") == 0 &&
      strcmp (argv[argc - 1], "]") == 0) {
    argv[argc - 1] = NULL;
    r = nbd_connect_systemd_socket_activation (nbd, &argv[1]);
  }
  else if (argc == 1)
    r = nbd_connect_uri (nbd, argv[0]);
  else {
    fprintf (stderr, "%s: expected one NBD URI or [ CMD ARGS ... ]\n",
             progname);
    usage (stderr, EXIT_FAILURE);
  }
  if (r == -1)
    die_nbd ();
}

enum {
  HELP_OPTION = CHAR_MAX + 1,
  LONG_OPTIONS, SHORT_OPTIONS,
  COLOUR_OPTION, NO_COLOUR_OPTION,
};

static const char short_options[] = "n:o:V";
static const struct option long_options[] = {
  { "help", no_argument, NULL, HELP_OPTION },
  { "long-options", no_argument, NULL, LONG_OPTIONS },
  { "short-options", no_argument, NULL, SHORT_OPTIONS },
  { "version", no_argument, NULL, 'V' },
  COLOUR_LONG_OPTIONS (COLOUR_OPTION, NO_COLOUR_OPTION),
  { "length", required_argument, NULL, 'n' },
  { "limit", required_argument, NULL, 'n' },
  { "offset", required_argument, NULL, 'o' },
  { "skip", required_argument, NULL, 'o' },
  { NULL, 0, NULL, 0 }
};

int
main (int argc, char *argv[])
{
  uint64_t length = UINT64_MAX; /* --length: all by default */
  uint64_t offset = 0;          /* --offset */
  int64_t size;
  int c;

  colour = isatty (STDOUT_FILENO);
  while ((c = getopt_long (argc, argv, short_options, long_options,
                           NULL)) != -1) {
    switch (c) {
    case HELP_OPTION: usage (stdout, EXIT_SUCCESS);
    case LONG_OPTIONS: list_long_options (long_options);
    case SHORT_OPTIONS: list_short_options (short_options);
    case 'V': print_version ("nbddump"); exit (EXIT_SUCCESS);
    case COLOUR_OPTION: colour = true; break;
    case NO_COLOUR_OPTION: colour = false; break;
    case 'n': length = parse_size ("--length", optarg); break;
    case 'o': offset = parse_size ("--offset", optarg); break;
    default: usage (stderr, EXIT_FAILURE);
    }
  }

  connect_to (argc - optind, &argv[optind]);
  size = nbd_get_size (nbd);
  if (size == -1)
    die_nbd ();
  if (offset > (uint64_t) size) {
    fprintf (stderr, "%s: --offset %" PRIu64 " is beyond the end of the "
             "export (%" PRIi64 " bytes)\n", progname, offset, size);
    exit (EXIT_FAILURE);
  }
  if (length > (uint64_t) size - offset)
    length = (uint64_t) size - offset;

  if (colour) {
    signal (SIGINT, catch_signal);
    signal (SIGQUIT, catch_signal);
    signal (SIGTERM, catch_signal);
    signal (SIGHUP, catch_signal);
  }
  dump (nbd, offset, length, (uint64_t) size);

  if (nbd_shutdown (nbd, 0) == -1)
    die_nbd ();
  close_handle ();
  if (fflush (stdout) == EOF || ferror (stdout)) {
    fprintf (stderr, "%s: writing the output: %s\n", progname,
             strerror (errno));
    exit (EXIT_FAILURE);
  }
  exit (EXIT_SUCCESS);
}
