/* workload.c: one fixed client workload against whatever the server sends. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>

#include <libnbd.h>

#include "check.h"
#include "workload.h"

/* Sizes and offsets the workload uses. */
#define BUF_SIZE 8192
#define NR_AIO 4

/* A request's bounds, for the callbacks to check what they get. */
struct request {
  const char *buf;
  size_t count;
  uint64_t offset;
};

static int
list_cb (void *user_data, const char *name, const char *description)
{
  CHECK (name != NULL && description != NULL);
  CHECK (strlen (name) <= 4096 && strlen (description) <= 4096);
  (void) user_data;
  return 0;
}

static int
context_cb (void *user_data, const char *name)
{
  CHECK (name != NULL && strlen (name) <= 4096);
  (void) user_data;
  return 0;
}

/* Each chunk lies inside its request, in the caller's buffer. */
static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  const struct request *r = user_data;

  CHECK (status == LIBNBD_READ_DATA || status == LIBNBD_READ_HOLE ||
         status == LIBNBD_READ_ERROR);
  CHECK (offset >= r->offset && offset - r->offset <= r->count);
  CHECK (count <= r->count - (offset - r->offset));
  if (status == LIBNBD_READ_ERROR)
    CHECK (*error != 0);
  else
    CHECK ((const char *) subbuf == r->buf + (offset - r->offset));
  return 0;
}

/* Extents come in (length, flags) pairs, none empty. */
static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  size_t i;

  CHECK (metacontext != NULL);
  CHECK (nr_entries % 2 == 0);
  for (i = 0; i < nr_entries; i += 2)
    CHECK (entries[i] > 0);
  (void) user_data; (void) offset; (void) error;
  return 0;
}

/* 64-bit extents: none empty, and (each lying inside the export) their
 * sum never wraps.
 */
static int
extent64_cb (void *user_data, const char *metacontext, uint64_t offset,
             nbd_extent *entries, size_t nr_entries, int *error)
{
  uint64_t sum = 0;
  size_t i;

  CHECK (metacontext != NULL && offset == 0);
  for (i = 0; i < nr_entries; i++) {
    CHECK (entries[i].length > 0);
    CHECK (entries[i].length <= UINT64_MAX - sum);
    sum += entries[i].length;
  }
  (void) user_data; (void) error;
  return 0;
}

static int
completion_cb (void *user_data, int *error)
{
  int *count = user_data;

  CHECK (*error >= 0);
  (*count)++;
  return 1;                     /* retire the command */
}

/* Several commands in flight, polled until all are done or it dies. */
static int
aio_step (struct nbd_handle *h, char *buf)
{
  static struct request req;
  int done = 0, issued = 0, r = 0;
  nbd_completion_callback cb = { .callback = completion_cb,
                                 .user_data = &done };

  req = (struct request) { buf + 1024, 1024, 4096 };
  issued += nbd_aio_pread (h, buf, 512, 0, cb, 0) > 0;
  issued += nbd_aio_pread_structured (h, buf + 1024, 1024, 4096,
              (nbd_chunk_callback) { .callback = chunk_cb,
                                     .user_data = &req },
              cb, 0) > 0;
  issued += nbd_aio_block_status (h, 65536, 0,
              (nbd_extent_callback) { .callback = extent_cb },
              cb, 0) > 0;
  issued += nbd_aio_pwrite (h, buf + 4096, 512, 8192, cb, 0) > 0;
  while (done < issued && r != -1)
    r = nbd_poll (h, -1);
  /* Never negative; refused only before the handle connected. */
  if (nbd_aio_in_flight (h) < 0)
    CHECK (issued == 0 && nbd_aio_in_flight (h) == -1);
  return r;
}

/* Whether the client asks for extended headers (workload_extended). */
static bool extended;

/* With extended headers only (compact traffic stays as recorded):
 * block status over more than 32 bits, then filtered to one context
 * (a request with a payload).
 */
static int
extended_step (struct nbd_handle *h, int i)
{
  static char inverse[] = "x-ext:inverse";
  static char *filter[] = { inverse, NULL };
  const uint64_t count = UINT64_C (1) << 33;  /* all of ext-server */

  if (!extended)
    return 0;
  if (i == 0)
    return nbd_block_status_64 (h, count, 0,
             (nbd_extent64_callback) { .callback = extent64_cb }, 0);
  return nbd_block_status_filter (h, count, 0, filter,
           (nbd_extent64_callback) { .callback = extent64_cb }, 0);
}

/* One step of the workload; the return value and errno are its outcome. */
static int
step (struct nbd_handle *h, int i, int sock, char *buf)
{
  static struct request req;

  switch (i) {
  case 0: return nbd_connect_socket (h, sock);
  case 1: return nbd_opt_list (h, (nbd_list_callback) { .callback = list_cb });
  case 2: return nbd_opt_info (h);
  case 3: return nbd_opt_list_meta_context (h,
                   (nbd_context_callback) { .callback = context_cb });
  case 4: return nbd_opt_go (h);
  case 5: return nbd_pread (h, buf, 512, 0, 0);
  case 6:
    req = (struct request) { buf, 4096, 512 };
    return nbd_pread_structured (h, buf, 4096, 512,
             (nbd_chunk_callback) { .callback = chunk_cb,
                                    .user_data = &req }, 0);
  case 7: return nbd_block_status (h, 65536, 0,
                   (nbd_extent_callback) { .callback = extent_cb }, 0);
  case 8: return extended_step (h, 0);
  case 9: return extended_step (h, 1);
  case 10: return aio_step (h, buf);
  case 11: return nbd_pwrite (h, buf, 512, 0, 0);
  case 12: return nbd_flush (h, 0);
  case 13: return nbd_shutdown (h, 0);
  }
  abort ();
}

void
workload_extended (bool on)
{
  extended = on;
}

int
workload_run (int sock, int limit)
{
  struct nbd_handle *h = nbd_create ();
  char *buf = malloc (BUF_SIZE);
  int i, r, eof_step = WORKLOAD_STEPS;

  CHECK (h != NULL && buf != NULL);
  memset (buf, 0x55, BUF_SIZE);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  /* Most of the corpus is compact-header traffic (fake-server and
   * nbdkit do not speak extended headers): asking for them there would
   * put every input out of step at the first option.
   */
  CHECK (nbd_set_request_extended_headers (h, extended) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  /* tests/ext-server's second context, for block_status_filter. */
  if (extended)
    CHECK (nbd_add_meta_context (h, "x-ext:inverse") == 0);
  CHECK (nbd_set_pread_initialize (h, false) == 0);
  for (i = 0; i < limit && i < WORKLOAD_STEPS; ++i) {
    r = step (h, i, sock, buf);
    /* Every failure says why; like libnbd, an end of file or a
     * malformed handshake reply carries no errno.
     */
    if (r == -1)
      CHECK (nbd_get_error () != NULL);
    if ((r == -1 && (nbd_get_errno () == ECONNRESET ||
                     nbd_get_errno () == EPIPE ||
                     strstr (nbd_get_error (),
                             "server disconnected unexpectedly"))) ||
        nbd_aio_is_closed (h)) {
      eof_step = i;
      break;
    }
  }
  if (limit <= 0)
    close (sock);               /* nbd_connect_socket never took it */
  nbd_close (h);
  free (buf);
  return eof_step;
}

/* A socketpair whose server end FDS[1] is fed INPUT by pace.c. */
static void
make_server (const uint8_t *input, size_t len, int fds[2], bool close_at_end)
{
  CHECK (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
  pace_start (fds[1], input, len, close_at_end);
}

/* Inputs recorded with extended headers (or grown from them) hold the
 * extended reply magic somewhere: for those the client asks for them.
 */
static bool
has_extended_magic (const uint8_t *input, size_t len)
{
  static const uint8_t magic[4] = { 0x6e, 0x8a, 0x27, 0x8c };

  return memmem (input, len, magic, sizeof magic) != NULL;
}

void
workload_both_ways (const uint8_t *input, size_t len)
{
  int fds[2], eof_step;

  if (len > WORKLOAD_MAX_INPUT)
    return;
  workload_extended (has_extended_magic (input, len));
  make_server (input, len, fds, true);
  eof_step = workload_run (fds[0], WORKLOAD_STEPS);
  pace_stop ();
  close (fds[1]);

  /* The same bytes, the server's side never closed: steps before the
   * one that met the end must finish without it.
   */
  make_server (input, len, fds, false);
  workload_run (fds[0], eof_step);
  pace_stop ();
  close (fds[1]);
}
