/* main.c: nbdinfo's command line, and which mode runs. */

#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libnbd.h>

#include "colour-options.h"
#include "list-options.h"
#include "nbdinfo.h"
#include "version.h"

const char *progname;
bool json_output;
bool probe_content;
bool list_all;
const char *map_context;
bool map_totals;
const char *can_flag;
bool can_negated;
bool colour;

static bool size_only;          /* --size */
static bool uri_only;           /* --uri */

static void __attribute__ ((noreturn))
usage (FILE *f, int status)
{
  fprintf (f,
"\n"
"Display information and metadata about NBD servers and exports:\n"
"\n"
"    nbdinfo [--json] NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --size [--json] NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --uri [--json] NBD-URI\n"
"    nbdinfo --is read-only|rotational|tls NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --isnt read-only|rotational|tls NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --can cache|connect|... NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --cannot cache|connect|... NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo --has structured-reply|extended-headers NBD-URI | [ CMD ... ]\n"
"    nbdinfo --map[=CONTEXT] [--totals] [--json] NBD-URI | [ CMD ARGS ... ]\n"
"    nbdinfo -L|--list [--json] NBD-URI | [ CMD ARGS ... ]\n"
"\n"
"Other options:\n"
"\n"
"    nbdinfo --help\n"
"    nbdinfo --version\n"
"\n"
"Examples:\n"
"\n"
"    nbdinfo nbd://localhost\n"
"    nbdinfo \"nbd+unix:///?socket=/tmp/unixsock\"\n"
"    nbdinfo --size nbd://example.com\n"
"    nbdinfo --can trim nbd://example.com\n"
"    nbdinfo --map --totals nbd://example.com\n"
"    nbdinfo --list --json nbd://example.com\n"
"    nbdinfo --map -- [ qemu-nbd -r -f qcow2 file.qcow2 ]\n"
"\n"
"Please read the nbdinfo(1) manual page for full usage.\n"
"\n");
  exit (status);
}

enum {
  HELP_OPTION = CHAR_MAX + 1,
  LONG_OPTIONS, SHORT_OPTIONS,
  COLOUR_OPTION, NO_COLOUR_OPTION,
  CONTENT_OPTION, NO_CONTENT_OPTION,
  JSON_OPTION, CAN_OPTION, CANNOT_OPTION,
  MAP_OPTION, SIZE_OPTION, TOTALS_OPTION, URI_OPTION,
};

static const char short_options[] = "LV";
static const struct option long_options[] = {
  { "help", no_argument, NULL, HELP_OPTION },
  { "can", required_argument, NULL, CAN_OPTION },
  { "cannot", required_argument, NULL, CANNOT_OPTION },
  { "can-not", required_argument, NULL, CANNOT_OPTION },
  { "cant", required_argument, NULL, CANNOT_OPTION },
  COLOUR_LONG_OPTIONS (COLOUR_OPTION, NO_COLOUR_OPTION),
  { "content", no_argument, NULL, CONTENT_OPTION },
  { "no-content", no_argument, NULL, NO_CONTENT_OPTION },
  { "has", required_argument, NULL, CAN_OPTION },
  { "hasnot", required_argument, NULL, CANNOT_OPTION },
  { "has-not", required_argument, NULL, CANNOT_OPTION },
  { "hasnt", required_argument, NULL, CANNOT_OPTION },
  { "have", required_argument, NULL, CAN_OPTION },
  { "havent", required_argument, NULL, CANNOT_OPTION },
  { "havenot", required_argument, NULL, CANNOT_OPTION },
  { "have-not", required_argument, NULL, CANNOT_OPTION },
  { "is", required_argument, NULL, CAN_OPTION },
  { "isnot", required_argument, NULL, CANNOT_OPTION },
  { "is-not", required_argument, NULL, CANNOT_OPTION },
  { "isnt", required_argument, NULL, CANNOT_OPTION },
  { "json", no_argument, NULL, JSON_OPTION },
  { "list", no_argument, NULL, 'L' },
  { "long-options", no_argument, NULL, LONG_OPTIONS },
  { "map", optional_argument, NULL, MAP_OPTION },
  { "short-options", no_argument, NULL, SHORT_OPTIONS },
  { "size", no_argument, NULL, SIZE_OPTION },
  { "total", no_argument, NULL, TOTALS_OPTION },
  { "totals", no_argument, NULL, TOTALS_OPTION },
  { "uri", no_argument, NULL, URI_OPTION },
  { "version", no_argument, NULL, 'V' },
  { NULL, 0, NULL, 0 }
};


/* The NBD argument: one URI, or a server command between [ and ]. */
static void
parse_target (int argc, char **argv)
{
  int n = argc - optind;

  if (n >= 3 && strcmp (argv[optind], "[") == 0 &&
      strcmp (argv[argc - 1], "]") == 0) {
    argv[argc - 1] = NULL;
    set_target_command (&argv[optind + 1]);
  }
  else if (n == 1)
    set_target_uri (argv[optind]);
  else
    usage (stderr, EXIT_FAILURE);
}

static void __attribute__ ((noreturn))
refuse (const char *why)
{
  fprintf (stderr, "%s: %s\n", progname, why);
  exit (EXIT_FAILURE);
}

/* Options that make no sense together, and the content default. */
static void
check_options (bool content_flag, bool no_content_flag)
{
  if (list_all + !!can_flag + !!map_context + size_only + uri_only > 1)
    refuse ("you cannot use --can, --cannot, --list, --map, --size "
            "and --uri together.");
  if (content_flag && no_content_flag)
    refuse ("you cannot use --content and --no-content together.");
  if (map_totals && !map_context)
    refuse ("you must use --totals only with --map option.");
  if (can_flag && !can_flag_known (can_flag)) {
    fprintf (stderr, "%s: unknown %s option: %s\n", progname,
             can_negated ? "--cannot/--isnt/--hasnt" : "--can/--is/--has",
             can_flag);
    exit (EXIT_FAILURE);
  }

  /* Reading content is costly for every export of a list, and
   * pointless when only a flag, a size or a map is asked for.
   */
  probe_content = !list_all;
  if (content_flag)
    probe_content = true;
  if (no_content_flag || can_flag || map_context || size_only || uri_only)
    probe_content = false;
}

static void
parse_options (int argc, char **argv)
{
  bool content_flag = false, no_content_flag = false;
  int c;

  while ((c = getopt_long (argc, argv, short_options, long_options,
                           NULL)) != -1) {
    switch (c) {
    case HELP_OPTION: usage (stdout, EXIT_SUCCESS);
    case LONG_OPTIONS: list_long_options (long_options);
    case SHORT_OPTIONS: list_short_options (short_options);
    case COLOUR_OPTION: colour = true; break;
    case NO_COLOUR_OPTION: colour = false; break;
    case CONTENT_OPTION: content_flag = true; break;
    case NO_CONTENT_OPTION: no_content_flag = true; break;
    case JSON_OPTION: json_output = true; break;
    case CAN_OPTION: can_flag = optarg; can_negated = false; break;
    case CANNOT_OPTION: can_flag = optarg; can_negated = true; break;
    case MAP_OPTION:
      map_context = optarg ? optarg : LIBNBD_CONTEXT_BASE_ALLOCATION;
      break;
    case SIZE_OPTION: size_only = true; break;
    case TOTALS_OPTION: map_totals = true; break;
    case URI_OPTION: uri_only = true; break;
    case 'L': list_all = true; break;
    case 'V': print_version ("nbdinfo"); exit (EXIT_SUCCESS);
    default: usage (stderr, EXIT_FAILURE);
    }
  }
  parse_target (argc, argv);
  check_options (content_flag, no_content_flag);
}

/* The default mode: the connection, then one export or all of them. */
static bool
show_all (struct nbd_handle *nbd)
{
  bool ok;

  show_connection (nbd);
  if (list_all)
    ok = do_list (nbd);
  else
    ok = show_export (nbd, NULL);
  show_end ();
  return ok;
}

/* Runs the mode chosen; returns the exit status. */
static int
run_mode (struct nbd_handle *nbd)
{
  if (size_only)
    do_size (nbd);
  else if (uri_only)
    do_uri (nbd);
  else if (can_flag)
    return do_can (nbd);
  else if (map_context)
    do_map (nbd);
  else if (!show_all (nbd))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *nbd;
  int status;

  /* Messages name the program as typed, without its directory. */
  progname = strrchr (argv[0], '/') ? strrchr (argv[0], '/') + 1 : argv[0];
  colour = isatty (STDOUT_FILENO);
  parse_options (argc, argv);

  out_open ();
  nbd = open_handle ();
  /* Full info costs nothing and gives the description and block sizes
   * the default mode prints.  A map needs its context negotiated.
   */
  if (!can_flag && !map_context && !size_only && !uri_only)
    nbd_set_full_info (nbd, true);
  if (map_context && nbd_add_meta_context (nbd, map_context) == -1)
    die_nbd ();
  connect_handle (nbd);
  status = run_mode (nbd);
  close_handle (nbd);

  /* A list shows what it could; a single export refused prints
   * nothing, as for every other error.
   */
  if (status != EXIT_FAILURE || list_all)
    out_flush ();
  return status;
}
