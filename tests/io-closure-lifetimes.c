/* io-closure-lifetimes.c: callbacks and their .free run the right times. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

/* One closure's history. */
struct life {
  unsigned calls;               /* times the callback ran */
  unsigned frees;               /* times .free ran */
  int last_error;               /* *error seen by the last call */
  int retval;                   /* what the callback returns */
};

static void
free_cb (void *user_data)
{
  struct life *l = user_data;

  l->frees++;
}

static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  struct life *l = user_data;

  if (l->frees)
    FAIL ("chunk callback called after its .free");
  l->calls++;
  return 0;
}

static int
extent_cb (void *user_data, const char *metacontext, uint64_t offset,
           uint32_t *entries, size_t nr_entries, int *error)
{
  struct life *l = user_data;

  if (l->frees)
    FAIL ("extent callback called after its .free");
  l->calls++;
  return 0;
}

static int
completion_cb (void *user_data, int *error)
{
  struct life *l = user_data;

  if (l->frees)
    FAIL ("completion callback called after its .free");
  l->calls++;
  l->last_error = *error;
  return l->retval;
}

#define CHUNK(l) \
  ((nbd_chunk_callback) { .callback = chunk_cb, .user_data = (l), \
                          .free = free_cb })
#define EXTENT(l) \
  ((nbd_extent_callback) { .callback = extent_cb, .user_data = (l), \
                           .free = free_cb })
#define COMPLETION(l) \
  ((nbd_completion_callback) { .callback = completion_cb, \
                               .user_data = (l), .free = free_cb })

static struct nbd_handle *
connect_server (const char *delay)
{
  struct nbd_handle *h;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "--filter=delay",
                   "memory", "size=1M", (char *) delay, NULL };

  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_connect_command (h, args) == 0);
  return h;
}

/* Poll until the callback recorded in L has run. */
static void
wait_for (struct nbd_handle *h, struct life *l)
{
  int loops;

  for (loops = 0; l->calls == 0; ++loops) {
    if (loops > 1000)
      FAIL ("command did not complete");
    CHECK (nbd_poll (h, 1000) != -1);
  }
}

/* A successful command: each callback then its .free, once each. */
static void
test_success (void)
{
  struct nbd_handle *h = connect_server ("rdelay=0");
  struct life chunk = { 0 }, extent = { 0 }, completion = { 0 };
  char buf[512];
  int64_t cookie;

  cookie = nbd_aio_pread_structured (h, buf, sizeof buf, 0,
                                     CHUNK (&chunk), COMPLETION (&completion),
                                     0);
  CHECK (cookie > 0);
  wait_for (h, &completion);
  CHECK (chunk.calls >= 1);
  CHECK (completion.calls == 1);
  CHECK (completion.last_error == 0);
  /* The closures may be freed now or when the command is retired. */
  CHECK (chunk.frees <= 1);
  CHECK (completion.frees <= 1);
  CHECK (nbd_aio_command_completed (h, cookie) == 1);
  CHECK (chunk.frees == 1);
  CHECK (completion.frees == 1);

  memset (&completion, 0, sizeof completion);
  cookie = nbd_aio_block_status (h, sizeof buf, 0, EXTENT (&extent),
                                 COMPLETION (&completion), 0);
  CHECK (cookie > 0);
  wait_for (h, &completion);
  CHECK (nbd_aio_command_completed (h, cookie) == 1);
  CHECK (extent.calls == 1);
  CHECK (extent.frees == 1);
  CHECK (completion.calls == 1);
  CHECK (completion.frees == 1);

  /* The synchronous calls free their closures before returning. */
  memset (&chunk, 0, sizeof chunk);
  memset (&extent, 0, sizeof extent);
  CHECK (nbd_pread_structured (h, buf, sizeof buf, 0, CHUNK (&chunk), 0) == 0);
  CHECK (chunk.calls >= 1 && chunk.frees == 1);
  CHECK (nbd_block_status (h, sizeof buf, 0, EXTENT (&extent), 0) == 0);
  CHECK (extent.calls == 1 && extent.frees == 1);

  nbd_close (h);
  /* Nothing is freed twice by nbd_close. */
  CHECK (chunk.frees == 1 && extent.frees == 1 && completion.frees == 1);
}

/* A call that fails at once frees its closures without calling them. */
static void
test_immediate_failure (void)
{
  struct nbd_handle *h = connect_server ("rdelay=0");
  struct life chunk = { 0 }, extent = { 0 }, completion = { 0 };
  char buf[512];

  CHECK (nbd_aio_pread (h, buf, sizeof buf, 2 * 1024 * 1024,
                        COMPLETION (&completion), 0) == -1);
  CHECK_ERROR (EINVAL, "nbd_aio_pread: ");
  CHECK (completion.calls == 0);
  CHECK (completion.frees == 1);

  memset (&completion, 0, sizeof completion);
  CHECK (nbd_aio_pread_structured (h, buf, sizeof buf, 2 * 1024 * 1024,
                                   CHUNK (&chunk), COMPLETION (&completion),
                                   0) == -1);
  CHECK (chunk.calls == 0 && chunk.frees == 1);
  CHECK (completion.calls == 0 && completion.frees == 1);

  memset (&completion, 0, sizeof completion);
  CHECK (nbd_aio_block_status (h, 0, 0, EXTENT (&extent),
                               COMPLETION (&completion), 0) == -1);
  CHECK (extent.calls == 0 && extent.frees == 1);
  CHECK (completion.calls == 0 && completion.frees == 1);

  memset (&chunk, 0, sizeof chunk);
  CHECK (nbd_pread_structured (h, buf, 0, 0, CHUNK (&chunk), 0) == -1);
  CHECK (chunk.calls == 0 && chunk.frees == 1);

  /* Before connecting, too. */
  nbd_close (h);
  h = nbd_create ();
  CHECK (h != NULL);
  memset (&completion, 0, sizeof completion);
  CHECK (nbd_aio_pread (h, buf, sizeof buf, 0, COMPLETION (&completion),
                        0) == -1);
  CHECK (completion.calls == 0 && completion.frees == 1);
  nbd_close (h);
  CHECK (completion.frees == 1);
}

/* Commands still in flight at nbd_close are freed exactly once. */
static void
test_close_in_flight (void)
{
  struct nbd_handle *h = connect_server ("rdelay=1");
  struct life chunk = { 0 }, completion[2] = { { 0 }, { 0 } };
  char buf[2][512];

  CHECK (nbd_aio_pread_structured (h, buf[0], 512, 0, CHUNK (&chunk),
                                   COMPLETION (&completion[0]), 0) > 0);
  CHECK (nbd_aio_pread (h, buf[1], 512, 512, COMPLETION (&completion[1]),
                        0) > 0);
  CHECK (nbd_aio_in_flight (h) == 2);
  CHECK (completion[0].frees == 0 && completion[1].frees == 0);
  nbd_close (h);
  CHECK (chunk.frees == 1);
  CHECK (completion[0].frees == 1);
  CHECK (completion[1].frees == 1);
  /* If close reported the command at all, it reported a failure. */
  CHECK (completion[0].calls <= 1 && completion[1].calls <= 1);
  if (completion[0].calls)
    CHECK (completion[0].last_error != 0);
}

/* A completion callback returning 1 retires the command itself. */
static void
test_auto_retire (void)
{
  struct nbd_handle *h = connect_server ("rdelay=0");
  struct life completion = { .retval = 1 };
  char buf[512];
  int64_t cookie;

  cookie = nbd_aio_pread (h, buf, sizeof buf, 0, COMPLETION (&completion), 0);
  CHECK (cookie > 0);
  wait_for (h, &completion);
  CHECK (completion.calls == 1);
  CHECK (completion.last_error == 0);
  CHECK (completion.frees == 1);
  CHECK (nbd_aio_in_flight (h) == 0);
  CHECK (nbd_aio_command_completed (h, cookie) != 1);
  CHECK (nbd_aio_peek_command_completed (h) == -1);
  nbd_close (h);
  CHECK (completion.frees == 1);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_success ();
  test_immediate_failure ();
  test_close_in_flight ();
  test_auto_retire ();
  exit (EXIT_SUCCESS);
}
