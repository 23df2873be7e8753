/* main.c: nbdcopy's command line, the checks before copying, the copy. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "checkpoint-file.h"
#include "human-size.h"
#include "list-options.h"
#include "nbdcopy.h"
#include "usage-error.h"
#include "version.h"

struct options opt = {
  .connections = 4,
  .extents = true,
  .progress_fd = -1,
  .queue_size = 8 << 20,
  .request_size = 1 << 18,
  .requests = 64,
  .sparse_size = 4096,
  .blkhash_block_size = 64 * 1024,
  .unit = 1,
  .rc = RECONNECT_POLICY_INIT,
  .checkpoint_bytes = CHECKPOINT_BYTES,
  .checkpoint_seconds = CHECKPOINT_SECONDS,
};
/* Set by an option that only makes sense with --reconnect. */
static const char *needs_reconnect;
struct rw src, dst;

enum {
  HELP_OPTION = CHAR_MAX + 1, LONG_OPTIONS, SHORT_OPTIONS, ALLOCATED,
  DESTINATION_IS_ZERO, FLUSH, NO_EXTENTS, QUEUE_SIZE, REQUEST_SIZE,
  SYNCHRONOUS, BLKHASH, BLKHASH_FILE, MULTI_WRITERS, RECONNECT,
  RECONNECT_DELAY, REQUEST_TIMEOUT, CHECKPOINT_BYTES_OPT,
  CHECKPOINT_SECONDS_OPT, NO_REPLAY, CHECKPOINT_FILE,
};

static const char short_options[] = "C:pR:S:T:vV";
static const struct option long_options[] = {
  { "help", no_argument, NULL, HELP_OPTION },
  { "long-options", no_argument, NULL, LONG_OPTIONS },
  { "short-options", no_argument, NULL, SHORT_OPTIONS },
  { "allocated", no_argument, NULL, ALLOCATED },
  { "blkhash", optional_argument, NULL, BLKHASH },
  { "blkhash-file", required_argument, NULL, BLKHASH_FILE },
  { "checkpoint", required_argument, NULL, CHECKPOINT_FILE },
  { "checkpoint-bytes", required_argument, NULL, CHECKPOINT_BYTES_OPT },
  { "checkpoint-seconds", required_argument, NULL, CHECKPOINT_SECONDS_OPT },
  { "connections", required_argument, NULL, 'C' },
  { "destination-is-zero", no_argument, NULL, DESTINATION_IS_ZERO },
  { "target-is-zero", no_argument, NULL, DESTINATION_IS_ZERO },
  { "flush", no_argument, NULL, FLUSH },
  { "multi-writers", no_argument, NULL, MULTI_WRITERS },
  { "no-extents", no_argument, NULL, NO_EXTENTS },
  { "no-replay", no_argument, NULL, NO_REPLAY },
  { "progress", optional_argument, NULL, 'p' },
  { "queue-size", required_argument, NULL, QUEUE_SIZE },
  { "reconnect", required_argument, NULL, RECONNECT },
  { "reconnect-delay", required_argument, NULL, RECONNECT_DELAY },
  { "request-timeout", required_argument, NULL, REQUEST_TIMEOUT },
  { "request-size", required_argument, NULL, REQUEST_SIZE },
  { "requests", required_argument, NULL, 'R' },
  { "sparse", required_argument, NULL, 'S' },
  { "synchronous", no_argument, NULL, SYNCHRONOUS },
  { "threads", required_argument, NULL, 'T' },
  { "verbose", no_argument, NULL, 'v' },
  { "version", no_argument, NULL, 'V' },
  { NULL, 0, NULL, 0 }
};

static void __attribute__ ((noreturn))
usage (FILE *fp, int status)
{
  fprintf (fp,
"Copy to and from an NBD server, a file, a device or a pipe:\n"
"\n"
"  nbdcopy [--allocated] [-C N|--connections=N]\n"
"          [--destination-is-zero|--target-is-zero] [--flush]\n"
"          [--multi-writers] [--no-extents] [-p|--progress[=FD]]\n"
"          [--queue-size=N] [--request-size=N] [-R N|--requests=N]\n"
"          [-S N|--sparse=N] [--synchronous] [-T N|--threads=N] [-v]\n"
"          [--blkhash[=DIGEST[/BLOCKSIZE]]] [--blkhash-file=FILE]\n"
"          [--reconnect=SECONDS [--reconnect-delay=MIN:MAX]\n"
"           [--checkpoint-bytes=N] [--checkpoint-seconds=SECONDS]]\n"
"          [--request-timeout=SECONDS] [--checkpoint=FILE]\n"
"          SOURCE DESTINATION\n"
"\n"
"  SOURCE, DESTINATION := - | FILE | DEVICE | NBD-URI | [ CMD ARGS ... ]\n"
"  DESTINATION += null:\n"
"\n"
"Other forms:\n"
"  nbdcopy --help\n"
"  nbdcopy -V|--version\n"
"\n"
"Examples:\n"
"  nbdcopy nbd://example.com local.img\n"
"  nbdcopy nbd://example.com - | file -\n"
"  nbdcopy local.img nbd://example.com\n"
"  nbdcopy --blkhash disk.img null:\n"
"  nbdcopy -- [ qemu-nbd -r -f qcow2 disk.qcow2 ] - | sha256sum\n"
"\n"
"Please read the nbdcopy(1) manual page for full usage.\n");
  exit (status);
}

/* Every bad command line ends here. */
#define bad_option(...) usage_error ("nbdcopy", __VA_ARGS__)

/* A bad option value: the message alone, in libnbd 1.24's words. */
static void __attribute__ ((noreturn, format (printf, 1, 2)))
bad_value (const char *fmt, ...)
{
  va_list args;

  fprintf (stderr, "nbdcopy: ");
  va_start (args, fmt);
  vfprintf (stderr, fmt, args);
  va_end (args);
  fprintf (stderr, "\n");
  exit (EXIT_FAILURE);
}

/* Sizes the ours-only options take ("64M", "1GiB"). */
static uint64_t
parse_size (const char *option, const char *arg)
{
  const char *err;
  int64_t n = human_size_parse (arg, &err);

  if (n < 0)
    bad_option ("%s: %s: '%s'", option, err, arg);
  return n;
}

/* Sizes of the options libnbd 1.24 has, read as it reads them: blanks
 * and a sign, decimal digits, then at most one letter: b, s (512
 * bytes), k, m, g, t, p or e, in either case.
 */
static uint64_t
parse_size_124 (const char *option, const char *arg)
{
  char *end;
  intmax_t n;
  int shift;

  errno = 0;
  n = strtoimax (arg, &end, 10);
  if (end == arg)
    bad_value ("%s: could not parse size string: %s", option, arg);
  if (errno == ERANGE)
    bad_value ("%s: size exceeds maximum value: %s", option, arg);
  if (n < 0)
    bad_value ("%s: size cannot be negative: %s", option, arg);
  switch (*end) {
  case '\0': case 'b': case 'B': shift = 0; break;
  case 's': case 'S': shift = 9; break;
  case 'k': case 'K': shift = 10; break;
  case 'm': case 'M': shift = 20; break;
  case 'g': case 'G': shift = 30; break;
  case 't': case 'T': shift = 40; break;
  case 'p': case 'P': shift = 50; break;
  case 'e': case 'E': shift = 60; break;
  default: shift = -1;
  }
  if (shift < 0 || (*end != '\0' && end[1] != '\0'))
    bad_value ("%s: could not parse size: unknown suffix: %s", option, end);
  if (n > (INT64_MAX >> shift))
    bad_value ("%s: could not parse size: size * scale overflows: %s",
               option, arg);
  return (uint64_t) n << shift;
}

/* Counts and descriptors alike stop at INT_MAX: --progress=FD keeps
 * -1 and -2 for "off" and "the bar", so a larger value must not wrap
 * into them. */
static unsigned
parse_unsigned (const char *option, const char *arg, unsigned min)
{
  char *end;
  unsigned long n;

  errno = 0;
  n = strtoul (arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 ||
      n > INT_MAX || n < min)
    bad_value ("%s: could not parse: %s", option, arg);
  return n;
}

static bool
is_power_of_2 (uint64_t n)
{
  return n > 0 && (n & (n - 1)) == 0;
}

static void
parse_progress (const char *arg)
{
  if (arg == NULL) {
    opt.progress_fd = -2;
    return;
  }
  opt.progress_fd = parse_unsigned ("--progress", arg, 0);
}

static void
parse_reconnect_option (int c, const char *arg)
{
  switch (c) {
  case RECONNECT:
    opt.rc.window = reconnect_option_seconds ("nbdcopy", "--reconnect", arg);
    return;
  case REQUEST_TIMEOUT:
    opt.rc.request_timeout =
      reconnect_option_seconds ("nbdcopy", "--request-timeout", arg);
    return;
  case RECONNECT_DELAY:
    reconnect_option_delay ("nbdcopy", arg, &opt.rc);
    needs_reconnect = "--reconnect-delay";
    return;
  case CHECKPOINT_BYTES_OPT:
    opt.checkpoint_bytes = parse_size ("--checkpoint-bytes", arg);
    if (opt.checkpoint_bytes < MIN_CHECKPOINT_BYTES)
      bad_option ("--checkpoint-bytes: must be at least %d",
                  MIN_CHECKPOINT_BYTES);
    needs_reconnect = "--checkpoint-bytes";
    return;
  case CHECKPOINT_SECONDS_OPT:
    opt.checkpoint_seconds =
      reconnect_option_seconds ("nbdcopy", "--checkpoint-seconds", arg);
    if (opt.checkpoint_seconds <= 0)
      bad_option ("--checkpoint-seconds: must be more than 0");
    needs_reconnect = "--checkpoint-seconds";
    return;
  case NO_REPLAY:
    opt.no_replay = true;
    needs_reconnect = "--no-replay";
    return;
  case CHECKPOINT_FILE:
    if (arg[0] == '\0')
      bad_option ("--checkpoint: needs a file name");
    opt.checkpoint_file = arg;
    opt.resume = ckfile_exists (arg);
    return;
  }
}

/* [DIGEST[/BLOCKSIZE]], as in libnbd 1.24: one of its four digests,
 * a power of 2 up to 2G.  --blkhash alone (or empty) means sha256/64k;
 * DIGEST alone keeps the block size of an earlier --blkhash.
 */
static void
parse_blkhash (const char *arg)
{
  static const char *const digests[] = { "md5", "sha1", "sha256", "sha512" };
  const char *slash;
  size_t len, i;
  uint64_t bs;

  opt.blkhash_digest = "sha256";
  if (arg == NULL || arg[0] == '\0')
    opt.blkhash_block_size = 64 * 1024;
  else {
    slash = strchr (arg, '/');
    len = slash ? (size_t) (slash - arg) : strlen (arg);
    for (i = 0; i < sizeof digests / sizeof digests[0]; i++)
      if (strlen (digests[i]) == len && strncasecmp (arg, digests[i], len) == 0)
        break;
    if (i == sizeof digests / sizeof digests[0])
      bad_value ("--blkhash: unknown digest algorithm '%s'", arg);
    opt.blkhash_digest = digests[i];
    if (slash) {
      bs = parse_size_124 ("--blkhash", slash + 1);
      if (!is_power_of_2 (bs))
        bad_value ("--blkhash is not a power of two: %s", slash + 1);
      if (bs > MAX_BLKHASH_BLOCK_SIZE)
        bad_value ("--blkhash is too large: %s", slash + 1);
      opt.blkhash_block_size = bs;
    }
  }
  if (!blkhash_digest_ok (opt.blkhash_digest))
    bad_value ("--blkhash: unknown digest algorithm '%s'", arg);
}

static void
parse_request_size (const char *arg)
{
  opt.request_size = parse_size_124 ("--request-size", arg);
  if (!is_power_of_2 (opt.request_size) ||
      opt.request_size < MIN_REQUEST_SIZE ||
      opt.request_size > MAX_REQUEST_SIZE)
    bad_value ("--request-size: must be a power of 2 within %d-%d: %s",
               MIN_REQUEST_SIZE, MAX_REQUEST_SIZE, arg);
}

static void
parse_sparse (const char *arg)
{
  opt.sparse_size = parse_size_124 ("--sparse", arg);
  if (opt.sparse_size != 0 &&
      (!is_power_of_2 (opt.sparse_size) || opt.sparse_size < 512 ||
       opt.sparse_size > UINT_MAX))
    bad_value ("--sparse: must be a power of 2, between 512-%u: %s",
               UINT_MAX, arg);
}

/* Parse the options, leaving optind at the first endpoint. */
static void
parse_options (int argc, char *argv[])
{
  int c;

  for (;;) {
    c = getopt_long (argc, argv, short_options, long_options, NULL);
    if (c == -1)
      break;
    switch (c) {
    case HELP_OPTION: usage (stdout, EXIT_SUCCESS);
    case LONG_OPTIONS: list_long_options (long_options);
    case SHORT_OPTIONS: list_short_options (short_options);
    case ALLOCATED: opt.allocated = true; break;
    case BLKHASH: parse_blkhash (optarg); break;
    case BLKHASH_FILE: opt.blkhash_file = optarg; break;
    case 'C': opt.connections = parse_unsigned ("--connections", optarg, 1);
      break;
    case DESTINATION_IS_ZERO: opt.destination_is_zero = true; break;
    case FLUSH: opt.flush = true; break;
    case MULTI_WRITERS: opt.multi_writers = true; break;
    case NO_EXTENTS: opt.extents = false; break;
    case 'p': parse_progress (optarg); break;
    case QUEUE_SIZE:
      opt.queue_size = parse_size_124 ("--queue-size", optarg);
      break;
    case REQUEST_SIZE: parse_request_size (optarg); break;
    case 'R': opt.requests = parse_unsigned ("--requests", optarg, 1); break;
    case 'S': parse_sparse (optarg); break;
    case SYNCHRONOUS: opt.synchronous = true; break;
    case 'T': opt.threads = parse_unsigned ("--threads", optarg, 0); break;
    case 'v': opt.verbose = true; break;
    case RECONNECT: case RECONNECT_DELAY: case REQUEST_TIMEOUT:
    case CHECKPOINT_BYTES_OPT: case CHECKPOINT_SECONDS_OPT: case NO_REPLAY:
    case CHECKPOINT_FILE:
      parse_reconnect_option (c, optarg);
      break;
    case 'V': print_version ("nbdcopy"); exit (EXIT_SUCCESS);
    default: usage (stderr, EXIT_FAILURE);
    }
  }
  if (needs_reconnect && opt.no_replay && opt.rc.window <= 0)
    bad_option ("--no-replay needs --reconnect");
  if (needs_reconnect && !resilient ())
    bad_option ("%s needs --reconnect or --checkpoint", needs_reconnect);
  reconnect_policy_finish (&opt.rc);
}

/* --reconnect dials an end again and reads its ranges again: neither
 * can be done with a pipe, nor with a server nbdcopy started itself,
 * which is gone with its socket.
 */
static void
check_reconnectable (const struct rw *rw, const char *which)
{
  const char *o = opt.rc.window > 0 ? "--reconnect" : "--checkpoint";

  if (!resilient ())
    return;
  if (rw->argv)
    bad_option ("%s: the %s is a subprocess, which cannot be "
                "connected to again", o, which);
  if (rw->kind == RW_PIPE)
    bad_option ("%s: the %s is a pipe, which cannot be read or "
                "written again", o, which);
  if (opt.synchronous)
    bad_option ("%s does not work with --synchronous", o);
}

/* Parse one endpoint at argv[*i]: a word, or "[ CMD ARGS ... ]".  For
 * the bracketed form *ARGVP points at the command, NULL-terminated in
 * place of the "]".
 */
static const char *
parse_endpoint (int argc, char *argv[], int *i, char ***argvp)
{
  const char *word;
  int j;

  *argvp = NULL;
  if (*i >= argc)
    usage (stderr, EXIT_FAILURE);          /* as libnbd 1.24 does */
  word = argv[*i];
  if (strcmp (word, "[") != 0) {
    (*i)++;
    return word;
  }
  for (j = *i + 1; j < argc && strcmp (argv[j], "]") != 0; j++)
    ;
  if (j >= argc)
    bad_option ("'[' without a matching ']'");
  if (j == *i + 1)
    bad_option ("'[ ]' needs a command between the brackets");
  argv[j] = NULL;
  *argvp = &argv[*i + 1];
  *i = j + 1;
  return (*argvp)[0];           /* the server's name, for messages */
}

/* Connections: several only when every NBD end allows multi-conn (or
 * the user vouches for the destination with --multi-writers), never for
 * a subprocess, which is one server on one socket.  Threads follow, and
 * are never more than --connections, even between local files (as in
 * libnbd 1.24: -C 1 copies with one thread).
 */
static void
choose_connections (void)
{
  long n;

  if (opt.threads == 0) {
    n = sysconf (_SC_NPROCESSORS_ONLN);
    opt.threads = n > 0 ? n : 1;
  }
  if (src.kind == RW_NBD && (!src.can_multi_conn || src.argv))
    opt.connections = 1;
  if (dst.kind == RW_NBD &&
      ((!dst.can_multi_conn && !opt.multi_writers) || dst.argv))
    opt.connections = 1;
  if (src.kind == RW_PIPE || dst.kind == RW_PIPE)
    opt.synchronous = true;
  if (opt.synchronous)
    opt.connections = opt.threads = 1;
  if (opt.threads > opt.connections)
    opt.threads = opt.connections;
  opt.connections = opt.threads;
}

static uint64_t
gcd (uint64_t a, uint64_t b)
{
  uint64_t t;

  while (b != 0) {
    t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The unit of every request: a multiple of both ends' minimum block
 * sizes and of the blkhash block size (all powers of 2).
 */
static void
choose_unit (void)
{
  uint64_t align = src.minimum > dst.minimum ? src.minimum : dst.minimum;
  uint64_t b = opt.blkhash_digest ? opt.blkhash_block_size : 1;

  /* Larger blocks are hashed in pieces (blkhash.c). */
  if (b > MAX_REQUEST_SIZE)
    b = 1;

  opt.unit = b / gcd (b, align) * align;
  if (opt.unit > MAX_REQUEST_SIZE) {
    fprintf (stderr, "nbdcopy: --blkhash: block size %" PRIu64 " and the "
             "servers' minimum block size %" PRIu64 " need requests of %"
             PRIu64 " bytes, larger than %d\n",
             b, align, opt.unit, MAX_REQUEST_SIZE);
    exit (EXIT_FAILURE);
  }
}

/* Request and sparse sizes grow to what the servers prefer, and are
 * made of whole units.  Sparse runs start on multiples of the sparse
 * size, so it is at least the destination's minimum block size.
 */
static void
adjust_sizes (void)
{
  if (src.preferred > opt.request_size)
    opt.request_size = src.preferred;
  if (dst.preferred > opt.request_size)
    opt.request_size = dst.preferred;
  if (opt.request_size > MAX_REQUEST_SIZE)
    opt.request_size = MAX_REQUEST_SIZE;
  choose_unit ();
  if (opt.request_size < opt.unit)
    opt.request_size = opt.unit;
  else
    opt.request_size -= opt.request_size % opt.unit;
  if (opt.sparse_size && dst.preferred > opt.sparse_size)
    opt.sparse_size = dst.preferred;
  if (opt.sparse_size && dst.minimum > opt.sparse_size)
    opt.sparse_size = dst.minimum;
  if (opt.queue_size < opt.request_size)
    opt.queue_size = opt.request_size;
}

/* Two lines for an end, in libnbd 1.22's words, which scripts grep:
 * nbdcopy: src: nbd_ops "NAME"
 * nbdcopy: src: size=1048576 (1M), preferred block size=4096
 * An unknown preferred size is shown as 4096, as 1.22 does.
 */
static void
print_end (const struct rw *rw, const char *prefix)
{
  char human[HUMAN_SIZE_MAX] = "unknown";
  /* null: is as large as can be, as 1.24 shows it. */
  int64_t size = rw->kind == RW_NULL ? INT64_MAX : rw->size;

  if (size >= 0)
    human_size (human, size);
  fprintf (stderr, "nbdcopy: %s: %s_ops \"%s\"\n", prefix,
           rw_ops_name (rw->kind), rw->name);
  fprintf (stderr, "nbdcopy: %s: size=%" PRIi64 " (%s), "
           "preferred block size=%" PRIu32 "\n", prefix, size, human,
           rw->preferred ? rw->preferred : 4096);
}

static void
print_settings (void)
{
  print_end (&src, "src");
  print_end (&dst, "dst");
  fprintf (stderr, "nbdcopy: connections=%u requests=%u threads=%u "
           "synchronous=%s\n", opt.connections, opt.requests, opt.threads,
           opt.synchronous ? "true" : "false");
  fprintf (stderr, "nbdcopy: request size=%" PRIu64 " queue size=%" PRIu64
           " sparse=%" PRIu64 " extents=%s minimum block size=%" PRIu32
           "/%" PRIu32 "\n", opt.request_size, opt.queue_size,
           opt.sparse_size, opt.extents ? "on" : "off", src.minimum,
           dst.minimum);
}

static void
check_destination (void)
{
  if (dst.kind == RW_NBD && dst.read_only) {
    fprintf (stderr, "nbdcopy: %s: the destination is read-only, "
             "cannot write to it\n", dst.name);
    exit (EXIT_FAILURE);
  }
  if (src.size >= 0 && dst.size >= 0 && dst.size < src.size) {
    fprintf (stderr, "nbdcopy: error: destination size (%" PRIi64 ") is "
             "smaller than source size (%" PRIi64 ")\n", dst.size, src.size);
    exit (EXIT_FAILURE);
  }
}

int
main (int argc, char *argv[])
{
  const char *src_name, *dst_name;
  char **src_argv, **dst_argv;
  int i;

  parse_options (argc, argv);
  i = optind;
  src_name = parse_endpoint (argc, argv, &i, &src_argv);
  dst_name = parse_endpoint (argc, argv, &i, &dst_argv);
  if (i != argc)
    bad_option ("too many arguments after SOURCE and DESTINATION");
  if (src_argv == NULL && strcmp (src_name, "null:") == 0)
    bad_option ("null: can only be the destination");
  if (resilient () && (src_argv || dst_argv))
    check_reconnectable (&(struct rw) { .argv = src_argv ? src_argv
                                                         : dst_argv },
                         src_argv ? "source" : "destination");

  open_source (&src, src_name, src_argv);
  open_destination (&dst, dst_name, dst_argv, src.size);
  check_destination ();
  check_reconnectable (&src, "source");
  check_reconnectable (&dst, "destination");
  if (src.kind == RW_NBD && !src.can_extents)
    opt.extents = false;
  choose_connections ();
  adjust_sizes ();
  connect_more (&src, opt.connections);
  connect_more (&dst, opt.connections);
  if (opt.verbose)
    print_settings ();
  if (opt.blkhash_digest)
    blkhash_init (src.size);
  if (opt.checkpoint_file)
    ckfile_open (opt.checkpoint_file);

  /* "0/100" before the first byte, as libnbd 1.24 prints it: a reader
   * of --progress=FD knows at once that the copy started.
   */
  progress_update (false);
  if (opt.synchronous)
    copy_sync ();
  else
    copy_multi ();

  rw_check_writeback (&dst);
  /* --flush asks for durability, so a server that cannot flush is an
   * error (as in libnbd 1.22); --multi-writers flushes only to make
   * the connections' writes consistent, and only where it can.  With
   * --reconnect or --checkpoint every worker ended with a flush of its
   * connection, wherever the server can flush.
   */
  if (resilient () && dst.kind == RW_NBD && dst.can_flush)
    ;
  else if (opt.flush ||
           (opt.multi_writers && dst.kind == RW_NBD && dst.can_flush))
    rw_flush (&dst);
  progress_update (true);
  if (opt.rc.window > 0 &&
      (atomic_load (&rc_stats.reconnects) > 0 || opt.verbose))
    reconnect_stats_print ("nbdcopy", &rc_stats);
  /* After copying ranges again, bytes_done may not add up. */
  if (opt.blkhash_digest)
    blkhash_finish (resilient () ? (uint64_t) src.size
                    : atomic_load (&bytes_done));
  close_endpoint (&src);
  close_endpoint (&dst);
  ckfile_finish ();
  return EXIT_SUCCESS;
}
