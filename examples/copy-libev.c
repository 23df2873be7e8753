/* copy-libev.c: copy one NBD export to another, driven by a libev loop.
 *
 * Usage: copy-libev SRC-URI DST-URI
 *
 * A fixed pool of requests, each with its own buffer, is reused for the
 * whole copy: a request reads a chunk of the source, writes it to the
 * destination, then takes the next chunk.  Holes that block status
 * reports in the source become zero requests on the destination.
 * Reads skip buffer initialisation, which is safe because libnbd fails
 * any read the server did not fully cover.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <libnbd.h>

#define NR_REQUESTS 16
#define REQUEST_SIZE (1024 * 1024)
#define STATUS_SIZE (1024 * 1024 * 1024)

struct request {
  char *buf;
  uint64_t offset;
  size_t length;
};

/* An NBD connection and the libev watcher of its socket. */
struct conn {
  struct nbd_handle *h;
  ev_io watcher;
  const char *name;
};

static struct ev_loop *loop;
static ev_prepare prepare;
static struct conn src, dst;
static struct request requests[NR_REQUESTS];
static int64_t size;
static uint64_t next_offset;    /* start of the extents not yet used */
static uint64_t extents_end;    /* extents known up to here */
static bool extent_zero;        /* the kind of [next_offset, extents_end) */
static bool status_pending;     /* a block status command is in flight */
static bool have_extents;       /* the source can report holes */
static unsigned busy;           /* requests in flight */

static void __attribute__ ((noreturn))
die (const char *what, struct conn *c)
{
  fprintf (stderr, "copy-libev: %s: %s: %s\n", c->name, what,
           nbd_get_error ());
  exit (EXIT_FAILURE);
}

static int
extent_found (void *user_data, const char *metacontext, uint64_t offset,
              uint32_t *entries, size_t nr_entries, int *error)
{
  /* Only the first extent: each answer moves the cursor to its end. */
  if (strcmp (metacontext, LIBNBD_CONTEXT_BASE_ALLOCATION) != 0 ||
      nr_entries < 2 || offset != next_offset)
    return 0;
  extents_end = offset + entries[0];
  if (extents_end > (uint64_t) size)
    extents_end = size;
  extent_zero = (entries[1] & LIBNBD_STATE_ZERO) != 0;
  return 0;
}

/* Completion callbacks must not call the handle that runs them, so
 * they only record what happened; update_watchers starts the next
 * commands.
 */
static int
status_done (void *user_data, int *error)
{
  if (*error) {
    fprintf (stderr, "copy-libev: block status: %s\n", strerror (*error));
    exit (EXIT_FAILURE);
  }
  status_pending = false;
  if (extents_end <= next_offset) {     /* server said nothing useful */
    extents_end = next_offset + REQUEST_SIZE;
    extent_zero = false;
  }
  return 1;
}

/* Ask for the extents from next_offset on. */
static void
query_extents (void)
{
  uint64_t len = size - next_offset;

  if (!have_extents) {
    extents_end = size;
    extent_zero = false;
    return;
  }
  if (status_pending)
    return;
  if (len > STATUS_SIZE)
    len = STATUS_SIZE;
  status_pending = true;
  if (nbd_aio_block_status (src.h, len, next_offset,
                            (nbd_extent_callback) {
                              .callback = extent_found },
                            (nbd_completion_callback) {
                              .callback = status_done },
                            0) == -1)
    die ("block status", &src);
}

static int
request_done (void *user_data, int *error)
{
  struct request *r = user_data;

  if (*error) {
    fprintf (stderr, "copy-libev: %s at offset %" PRIu64 ": %s\n",
             dst.name, r->offset, strerror (*error));
    exit (EXIT_FAILURE);
  }
  busy--;
  r->length = 0;
  return 1;
}

static int
read_done (void *user_data, int *error)
{
  struct request *r = user_data;

  if (*error) {
    fprintf (stderr, "copy-libev: %s at offset %" PRIu64 ": %s\n",
             src.name, r->offset, strerror (*error));
    exit (EXIT_FAILURE);
  }
  if (nbd_aio_pwrite (dst.h, r->buf, r->length, r->offset,
                      (nbd_completion_callback) {
                        .callback = request_done, .user_data = r },
                      0) == -1)
    die ("write", &dst);
  return 1;
}

/* Give R the next chunk: a zero request for a hole, else a read. */
static void
start_request (struct request *r)
{
  uint64_t len;

  if (next_offset >= (uint64_t) size)
    return;
  if (next_offset >= extents_end) {
    query_extents ();
    if (next_offset >= extents_end)
      return;                   /* started again by status_done */
  }
  len = extents_end - next_offset;
  if (!extent_zero && len > REQUEST_SIZE)
    len = REQUEST_SIZE;
  r->offset = next_offset;
  r->length = len;
  next_offset += len;
  busy++;
  if (extent_zero) {
    if (nbd_aio_zero (dst.h, len, r->offset,
                      (nbd_completion_callback) {
                        .callback = request_done, .user_data = r },
                      0) == -1)
      die ("zero", &dst);
  }
  else if (nbd_aio_pread (src.h, r->buf, len, r->offset,
                          (nbd_completion_callback) {
                            .callback = read_done, .user_data = r },
                          0) == -1)
    die ("read", &src);
}

static void
io_ready (struct ev_loop *l, ev_io *w, int revents)
{
  struct conn *c = w->data;

  if ((revents & EV_READ) && nbd_aio_notify_read (c->h) == -1)
    die ("notify read", c);
  /* Reading may have sent what was waiting: only notify a write that
   * libnbd still wants.
   */
  if ((revents & EV_WRITE) &&
      (nbd_aio_get_direction (c->h) & LIBNBD_AIO_DIRECTION_WRITE) &&
      nbd_aio_notify_write (c->h) == -1)
    die ("notify write", c);
}

/* Before the loop sleeps: give idle requests work, watch each socket
 * for what libnbd waits on, and stop once every chunk is copied.
 */
static void
update_watchers (struct ev_loop *l, ev_prepare *w, int revents)
{
  struct conn *cs[2] = { &src, &dst };
  size_t i;
  unsigned dir;
  int events;

  for (i = 0; i < NR_REQUESTS; i++)
    if (requests[i].length == 0)
      start_request (&requests[i]);
  if (busy == 0 && !status_pending && next_offset >= (uint64_t) size) {
    ev_break (l, EVBREAK_ALL);
    return;
  }
  for (i = 0; i < 2; i++) {
    dir = nbd_aio_get_direction (cs[i]->h);
    events = ((dir & LIBNBD_AIO_DIRECTION_READ) ? EV_READ : 0) |
      ((dir & LIBNBD_AIO_DIRECTION_WRITE) ? EV_WRITE : 0);
    if (events != (cs[i]->watcher.events & (EV_READ | EV_WRITE))) {
      ev_io_stop (l, &cs[i]->watcher);
      ev_io_set (&cs[i]->watcher, cs[i]->watcher.fd, events);
      ev_io_start (l, &cs[i]->watcher);
    }
  }
}

static void
open_conn (struct conn *c, const char *uri, bool source)
{
  c->name = uri;
  c->h = nbd_create ();
  if (c->h == NULL)
    die ("nbd_create", c);
  if (nbd_set_pread_initialize (c->h, false) == -1 ||
      (source &&
       nbd_add_meta_context (c->h, LIBNBD_CONTEXT_BASE_ALLOCATION) == -1) ||
      nbd_connect_uri (c->h, uri) == -1)
    die ("connect", c);
  ev_io_init (&c->watcher, io_ready, nbd_aio_get_fd (c->h), 0);
  c->watcher.data = c;
  ev_io_start (loop, &c->watcher);
}

int
main (int argc, char *argv[])
{
  size_t i;

  if (argc != 3) {
    fprintf (stderr, "usage: %s SRC-URI DST-URI\n", argv[0]);
    exit (EXIT_FAILURE);
  }
  loop = EV_DEFAULT;
  open_conn (&src, argv[1], true);
  open_conn (&dst, argv[2], false);
  size = nbd_get_size (src.h);
  if (size == -1)
    die ("get size", &src);
  if (nbd_get_size (dst.h) < size) {
    fprintf (stderr, "copy-libev: destination is smaller than source\n");
    exit (EXIT_FAILURE);
  }
  have_extents =
    nbd_can_meta_context (src.h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1;

  for (i = 0; i < NR_REQUESTS; i++) {
    requests[i].buf = malloc (REQUEST_SIZE);
    if (requests[i].buf == NULL) {
      perror ("malloc");
      exit (EXIT_FAILURE);
    }
  }
  ev_prepare_init (&prepare, update_watchers);
  ev_prepare_start (loop, &prepare);
  ev_run (loop, 0);

  if (nbd_flush (dst.h, 0) == -1)
    die ("flush", &dst);
  nbd_shutdown (src.h, 0);
  nbd_shutdown (dst.h, 0);
  nbd_close (src.h);
  nbd_close (dst.h);
  for (i = 0; i < NR_REQUESTS; i++)
    free (requests[i].buf);
  return EXIT_SUCCESS;
}
