/* threaded-reads-and-writes: random reads and writes from several threads.
 *
 * Usage: threaded-reads-and-writes [options] SOCKET|URI
 *
 * Each thread opens its own handle to the NBD server listening on the
 * Unix socket SOCKET (or at the NBD URI, such as nbd://localhost:10809
 * for TCP), keeps up to MAX_IN_FLIGHT commands in flight and
 * drives the handle from its own poll(2) loop.  Requests are reads and
 * writes at random offsets, by default an even mix of 512-byte and
 * 1 MiB requests, half of them writes.  At the end it prints the totals
 * and the rates.  Try it with:
 *
 *   nbdkit -U - memory 1G \
 *     --run 'examples/threaded-reads-and-writes $unixsocket'
 *
 * Only calls present in libnbd 1.14 are used, so the same source builds
 * against this project's library and against older libnbd.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <pthread.h>

#include <libnbd.h>

#define DEFAULT_THREADS 4
#define DEFAULT_REQUESTS 4000      /* total, over all threads */
#define MAX_IN_FLIGHT 64           /* default per-thread queue depth */
#define SMALL_SIZE 512
#define LARGE_SIZE (1024 * 1024)
#define ALIGNMENT 512              /* offsets are multiples of this */

/* Settings, written by main before any thread starts, then read-only. */
static int64_t exportsize;
static unsigned max_in_flight = MAX_IN_FLIGHT;
static uint32_t small_size = SMALL_SIZE;
static uint32_t large_size = LARGE_SIZE;
static bool mix = true;            /* false: every request is small_size */
static unsigned write_percent = 50;
static double duration;            /* seconds; 0 means count requests */
static bool use_callbacks;         /* retire via callback, not peek */
static const char *psk_file;       /* -P: TLS with pre-shared keys */
static const char *tls_user;       /* -u: TLS user name for -P */
static struct timespec deadline;

/* Everything one thread owns.  No field is shared between threads. */
struct thread_data {
  pthread_t tid;
  unsigned index;
  struct nbd_handle *nbd;
  uint64_t rng;                    /* xorshift64 state, never 0 */
  uint64_t to_issue;               /* requests left, in count mode */
  char *rbuf;                      /* scratch for reads */
  char *wbuf;                      /* pattern for writes, never changed */
  unsigned in_flight;
  int cmd_error;                   /* first errno seen by a callback */
  uint64_t requests;               /* issued (all complete before exit) */
  uint64_t bytes_read;
  uint64_t bytes_written;
  int status;                      /* 0 or -1, read by main after join */
};

static void
usage (FILE *fp, int status)
{
  fprintf (fp,
"usage: threaded-reads-and-writes [options] SOCKET|URI\n"
"\n"
"  -t N     threads, each with its own handle (default %d)\n"
"  -r N     commands in flight per thread (default %d)\n"
"  -n N     total requests over all threads (default %d)\n"
"  -d SECS  run for SECS seconds instead of a count of requests\n"
"  -s SIZE  every request is SIZE bytes (e.g. -s 512)\n"
"  -m       mix small and large requests (default)\n"
"  -l SIZE  size of the large requests in the mix (default %d)\n"
"  -w PCT   percentage of requests that are writes, 0 to 100\n"
"           (default 50; 0 reads only, 100 writes only)\n"
"  -C       retire commands in a completion callback instead of\n"
"           nbd_aio_peek_command_completed + nbd_aio_command_completed\n"
"  -S SEED  random seed (default 1)\n"
"  -P FILE  require TLS, authenticating with the pre-shared keys in FILE\n"
"  -u USER  the TLS user name for -P (default: the login name)\n"
"  -h       show this help\n",
           DEFAULT_THREADS, MAX_IN_FLIGHT, DEFAULT_REQUESTS, LARGE_SIZE);
  exit (status);
}

/* Parse a positive number no greater than max, or exit. */
static uint64_t
parse_number (const char *opt, const char *s, uint64_t max)
{
  char *end;
  unsigned long long v;

  errno = 0;
  v = strtoull (s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v == 0 || v > max) {
    fprintf (stderr, "threaded-reads-and-writes: %s: bad value '%s'\n",
             opt, s);
    exit (EXIT_FAILURE);
  }
  return v;
}

/* Parse a percentage, 0 to 100, or exit.  0 is allowed here (unlike
 * counts and sizes): -w 0 makes every request a read.
 */
static unsigned
parse_percent (const char *opt, const char *s)
{
  if (strcmp (s, "0") == 0)
    return 0;
  return parse_number (opt, s, 100);
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool
past_deadline (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec > deadline.tv_sec ||
    (ts.tv_sec == deadline.tv_sec && ts.tv_nsec >= deadline.tv_nsec);
}

/* xorshift64: fast, good enough for picking offsets, and per thread. */
static uint64_t
next_random (struct thread_data *t)
{
  uint64_t x = t->rng;

  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  t->rng = x;
  return x;
}

/* Called with the handle locked, from inside nbd_aio_notify_*.  Returning
 * 1 retires the command, so nbd_aio_command_completed is not needed.
 */
static int
completed (void *user_data, int *error)
{
  struct thread_data *t = user_data;

  if (*error != 0 && t->cmd_error == 0)
    t->cmd_error = *error;
  t->in_flight--;
  return 1;
}

static bool
more_to_issue (struct thread_data *t)
{
  if (duration > 0)
    return !past_deadline ();
  return t->to_issue > 0;
}

/* Start one random read or write.  Returns -1 on error. */
static int
issue_one (struct thread_data *t)
{
  uint64_t r = next_random (t);
  uint32_t size = small_size;
  bool is_write = (r % 100) < write_percent;
  uint64_t slots, offset;
  nbd_completion_callback cb = NBD_NULL_COMPLETION;
  int64_t cookie;

  if (mix && (r >> 8) & 1)
    size = large_size;
  slots = (exportsize - size) / ALIGNMENT + 1;
  offset = ((r >> 9) % slots) * ALIGNMENT;
  if (use_callbacks) {
    cb.callback = completed;
    cb.user_data = t;
  }

  /* Reads from one thread land in rbuf one after another, because the
   * library only receives from inside this thread's notify calls.  A
   * real program would give each command its own buffer.
   */
  if (is_write)
    cookie = nbd_aio_pwrite (t->nbd, t->wbuf, size, offset, cb, 0);
  else
    cookie = nbd_aio_pread (t->nbd, t->rbuf, size, offset, cb, 0);
  if (cookie == -1) {
    fprintf (stderr, "thread %u: %s\n", t->index, nbd_get_error ());
    return -1;
  }

  t->in_flight++;
  t->requests++;
  if (duration == 0)
    t->to_issue--;
  if (is_write)
    t->bytes_written += size;
  else
    t->bytes_read += size;
  return 0;
}

/* Retire every command that has finished (peek mode).  Returns -1 on
 * error, including a command the server failed.
 */
static int
retire_completed (struct thread_data *t)
{
  int64_t cookie;

  while (t->in_flight > 0 &&
         (cookie = nbd_aio_peek_command_completed (t->nbd)) != 0) {
    if (cookie == -1 || nbd_aio_command_completed (t->nbd, cookie) == -1) {
      fprintf (stderr, "thread %u: %s\n", t->index, nbd_get_error ());
      return -1;
    }
    t->in_flight--;
  }
  return 0;
}

/* Wait for the socket and let the library move.  The direction is read
 * again after each notify, because a read may leave commands to send.
 */
static int
wait_and_notify (struct thread_data *t, int fd)
{
  struct pollfd pfd = { .fd = fd };
  unsigned dir = nbd_aio_get_direction (t->nbd);

  if (dir & LIBNBD_AIO_DIRECTION_READ)
    pfd.events |= POLLIN;
  if (dir & LIBNBD_AIO_DIRECTION_WRITE)
    pfd.events |= POLLOUT;
  if (poll (&pfd, 1, -1) == -1) {
    if (errno == EINTR)
      return 0;
    perror ("poll");
    return -1;
  }

  /* On POLLHUP or POLLERR a read is how the library learns of it. */
  if ((dir & LIBNBD_AIO_DIRECTION_READ) &&
      (pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
    if (nbd_aio_notify_read (t->nbd) == -1)
      goto error;
    dir = nbd_aio_get_direction (t->nbd);
  }
  if ((dir & LIBNBD_AIO_DIRECTION_WRITE) && (pfd.revents & POLLOUT)) {
    if (nbd_aio_notify_write (t->nbd) == -1)
      goto error;
  }
  return 0;

 error:
  fprintf (stderr, "thread %u: %s\n", t->index, nbd_get_error ());
  return -1;
}

static void *
start_thread (void *arg)
{
  struct thread_data *t = arg;
  int fd = nbd_aio_get_fd (t->nbd);

  t->status = -1;
  if (fd == -1) {
    fprintf (stderr, "thread %u: %s\n", t->index, nbd_get_error ());
    return NULL;
  }

  for (;;) {
    /* Retire first, then refill: waiting with nothing in flight would
     * wait for ever, and one notify may complete every command.
     */
    if (!use_callbacks && retire_completed (t) == -1)
      return NULL;
    while (t->in_flight < max_in_flight && more_to_issue (t)) {
      if (issue_one (t) == -1)
        return NULL;
    }
    if (t->cmd_error != 0) {
      fprintf (stderr, "thread %u: command failed: %s\n",
               t->index, strerror (t->cmd_error));
      return NULL;
    }
    if (t->in_flight == 0 && !more_to_issue (t))
      break;
    if (wait_and_notify (t, fd) == -1)
      return NULL;
  }

  t->status = 0;
  return NULL;
}

/* Create, connect and fill in one thread's state.  Returns -1 on error. */
static int
setup_thread (struct thread_data *t, unsigned i, const char *socket,
              uint64_t seed, uint64_t requests)
{
  uint32_t buf_size = mix ? large_size : small_size;

  t->index = i;
  t->rng = seed * 0x9e3779b97f4a7c15ULL + i + 1;
  if (t->rng == 0)
    t->rng = 1;
  t->to_issue = requests;
  t->rbuf = malloc (buf_size);
  t->wbuf = malloc (buf_size);
  if (t->rbuf == NULL || t->wbuf == NULL) {
    perror ("malloc");
    return -1;
  }
  memset (t->wbuf, 'a' + i % 26, buf_size);

  t->nbd = nbd_create ();
  if (t->nbd != NULL && psk_file &&
      (nbd_set_tls (t->nbd, LIBNBD_TLS_REQUIRE) == -1 ||
       nbd_set_tls_psk_file (t->nbd, psk_file) == -1 ||
       (tls_user && nbd_set_tls_username (t->nbd, tls_user) == -1))) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    return -1;
  }
  /* A Unix socket path, or an NBD URI (nbd://host:port for TCP). */
  if (t->nbd == NULL ||
      (strstr (socket, "://") ? nbd_connect_uri (t->nbd, socket)
       : nbd_connect_unix (t->nbd, socket)) == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    return -1;
  }
  return 0;
}

int
main (int argc, char *argv[])
{
  unsigned nr_threads = DEFAULT_THREADS;
  uint64_t total_requests = DEFAULT_REQUESTS;
  uint64_t seed = 1;
  struct thread_data *threads;
  uint64_t requests = 0, bytes_read = 0, bytes_written = 0;
  double start, seconds;
  unsigned i;
  int c, err, status = EXIT_SUCCESS;

  while ((c = getopt (argc, argv, "t:r:n:d:s:ml:w:CS:P:u:h")) != -1) {
    switch (c) {
    case 't': nr_threads = parse_number ("-t", optarg, 1024); break;
    case 'r': max_in_flight = parse_number ("-r", optarg, 65536); break;
    case 'n': total_requests = parse_number ("-n", optarg, UINT64_MAX); break;
    case 'd': duration = parse_number ("-d", optarg, 86400); break;
    case 's':
      small_size = parse_number ("-s", optarg, 64 * 1024 * 1024);
      mix = false;
      break;
    case 'm': mix = true; break;
    case 'l': large_size = parse_number ("-l", optarg, 64 * 1024 * 1024);
      break;
    case 'w':
      write_percent = parse_percent ("-w", optarg);
      break;
    case 'C': use_callbacks = true; break;
    case 'S': seed = parse_number ("-S", optarg, UINT64_MAX); break;
    case 'P': psk_file = optarg; break;
    case 'u': tls_user = optarg; break;
    case 'h': usage (stdout, EXIT_SUCCESS); break;
    default: usage (stderr, EXIT_FAILURE);
    }
  }
  if (optind != argc - 1)
    usage (stderr, EXIT_FAILURE);
  if (mix && large_size < small_size) {
    fprintf (stderr, "threaded-reads-and-writes: -l must be >= %" PRIu32
             "\n", small_size);
    exit (EXIT_FAILURE);
  }

  threads = calloc (nr_threads, sizeof *threads);
  if (threads == NULL) {
    perror ("calloc");
    exit (EXIT_FAILURE);
  }

  /* Connect every handle before the clock starts. */
  for (i = 0; i < nr_threads; ++i) {
    uint64_t share = total_requests / nr_threads +
      (i < total_requests % nr_threads);

    if (setup_thread (&threads[i], i, argv[optind], seed, share) == -1)
      exit (EXIT_FAILURE);
  }
  exportsize = nbd_get_size (threads[0].nbd);
  if (exportsize == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    exit (EXIT_FAILURE);
  }
  if (exportsize < (int64_t) (mix ? large_size : small_size)) {
    fprintf (stderr, "threaded-reads-and-writes: export too small\n");
    exit (EXIT_FAILURE);
  }

  start = now ();
  clock_gettime (CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t) duration;
  for (i = 0; i < nr_threads; ++i) {
    err = pthread_create (&threads[i].tid, NULL, start_thread, &threads[i]);
    if (err != 0) {
      errno = err;
      perror ("pthread_create");
      exit (EXIT_FAILURE);
    }
  }
  for (i = 0; i < nr_threads; ++i) {
    err = pthread_join (threads[i].tid, NULL);
    if (err != 0) {
      errno = err;
      perror ("pthread_join");
      exit (EXIT_FAILURE);
    }
  }
  seconds = now () - start;

  for (i = 0; i < nr_threads; ++i) {
    struct thread_data *t = &threads[i];

    if (t->status == -1)
      status = EXIT_FAILURE;
    requests += t->requests;
    bytes_read += t->bytes_read;
    bytes_written += t->bytes_written;
    if (t->status == 0 && nbd_shutdown (t->nbd, 0) == -1) {
      fprintf (stderr, "%s\n", nbd_get_error ());
      status = EXIT_FAILURE;
    }
    nbd_close (t->nbd);
    free (t->rbuf);
    free (t->wbuf);
  }
  free (threads);

  printf ("threads: %u\n", nr_threads);
  printf ("in flight per thread: %u\n", max_in_flight);
  printf ("requests: %" PRIu64 "\n", requests);
  printf ("bytes read: %" PRIu64 "\n", bytes_read);
  printf ("bytes written: %" PRIu64 "\n", bytes_written);
  printf ("seconds: %.3f\n", seconds);
  printf ("requests/s: %.0f\n", requests / seconds);
  printf ("MB/s: %.1f\n", (bytes_read + bytes_written) / seconds / 1e6);
  if (status != EXIT_SUCCESS)
    fprintf (stderr, "threaded-reads-and-writes: failed\n");
  exit (status);
}
