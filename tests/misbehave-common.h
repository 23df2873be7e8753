/* misbehave-common.h: connect to fake-server, and checks for misbehave-*.c. */
#ifndef MISBEHAVE_COMMON_H
#define MISBEHAVE_COMMON_H

/* Each test includes this once.  The functions are static inline so a
 * test that uses only some of them still builds without warnings.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <libgen.h>
#include <time.h>

#include <libnbd.h>

#include "test-common.h"

/* The size of fake-server's export. */
#define DISK_SIZE (1024 * 1024)

/* Reads in flight at once in expect_handle_dies. */
#define NR_CMDS 4

/* Where fake-server is: $builddir, else next to this program. */
static inline void
fake_server_path (const char *argv0, char *path, size_t len)
{
  const char *dir = getenv ("builddir");
  char *copy = strdup (argv0);

  CHECK (copy != NULL);
  snprintf (path, len, "%s/fake-server",
            dir && *dir ? dir : dirname (copy));
  free (copy);
  if (access (path, X_OK) != 0)
    FAIL ("%s is not built", path);
}

/* Start fake-server SCENARIO as the server of a new handle. */
static inline struct nbd_handle *
connect_scenario (const char *argv0, const char *scenario, bool pread_init)
{
  struct nbd_handle *h;
  static char path[4096];
  char *args[] = { path, (char *) scenario, NULL };

  fake_server_path (argv0, path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_pread_initialize (h, pread_init) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server %s: %s", scenario, nbd_get_error ());
  return h;
}

/* True if BUF holds the fake server's pattern for [offset, +count). */
static inline bool
is_pattern (const unsigned char *buf, size_t count, uint64_t offset)
{
  size_t i;
  uint64_t pos, base;

  for (i = 0; i < count; ++i) {
    pos = offset + i;
    base = pos & ~UINT64_C (7);
    if (buf[i] != ((base >> (8 * (7 - (pos & 7)))) & 0xff))
      return false;
  }
  return true;
}

/* Store the command's error in *USER_DATA, which starts as -1. */
static inline int
completion_cb (void *user_data, int *error)
{
  int *err = user_data;

  if (*err != -1)
    FAIL ("completion callback called twice");
  *err = *error;
  return 0;
}

/* What expect_handle_dies accepts. */
enum outcome {
  MUST_DIE,                     /* only a dead handle */
  MUST_BE_IGNORED,              /* only skipping it, all reads right */
};

/* Start NR_CMDS reads and poll until all complete.  Bounded: a library
 * that waits for bytes that never come fails here rather than hanging.
 */
static inline struct nbd_handle *
start_reads (const char *argv0, const char *scenario,
             unsigned char buf[NR_CMDS][65536],
             int errs[NR_CMDS], int64_t cookies[NR_CMDS])
{
  struct nbd_handle *h;
  char name[256];
  int i, loops, pending;
  time_t start;

  /* SCENARIO:N has the server spoil the first of N replies. */
  snprintf (name, sizeof name, "%s:%d", scenario, NR_CMDS);
  h = connect_scenario (argv0, name, false);
  for (i = 0; i < NR_CMDS; ++i) {
    errs[i] = -1;
    memset (buf[i], 0xaa, sizeof buf[i]);
    cookies[i] = nbd_aio_pread (h, buf[i], sizeof buf[i], i * 65536,
                                (nbd_completion_callback) {
                                  .callback = completion_cb,
                                  .user_data = &errs[i] }, 0);
    CHECK (cookies[i] > 0);
  }
  start = time (NULL);
  for (loops = 0; ; ++loops) {
    for (i = 0, pending = 0; i < NR_CMDS; ++i)
      pending += errs[i] == -1;
    if (pending == 0)
      break;
    if (loops >= 100000 || time (NULL) - start > 5)
      FAIL ("%s: %d reads never completed", scenario, pending);
    if (nbd_poll (h, 1000) == -1)
      break;
  }
  return h;
}

/* The handle is dead: every read in flight failed, and is reported as
 * failed once, and new commands fail at once.
 */
static inline void
check_all_failed (struct nbd_handle *h, const char *scenario,
                  unsigned char *buf, int errs[NR_CMDS],
                  int64_t cookies[NR_CMDS])
{
  int i, r;

  if (!nbd_aio_is_dead (h))
    FAIL ("%s: the handle is not dead (state: ready %d, closed %d)",
          scenario, nbd_aio_is_ready (h), nbd_aio_is_closed (h));
  for (i = 0; i < NR_CMDS; ++i) {
    if (errs[i] == -1)
      FAIL ("%s: read %d never completed", scenario, i);
    if (errs[i] == 0)
      FAIL ("%s: read %d reported success to its callback", scenario, i);
    r = nbd_aio_command_completed (h, cookies[i]);
    if (r != -1)
      FAIL ("%s: nbd_aio_command_completed of read %d returned %d",
            scenario, i, r);
    CHECK (nbd_get_errno () != 0);
  }
  CHECK (nbd_aio_in_flight (h) == 0);

  CHECK (nbd_pread (h, buf, 512, 0, 0) == -1);
  CHECK (nbd_get_errno () != 0);
  CHECK (strncmp (nbd_get_error (), "nbd_pread: ", 11) == 0);
}

/* The server spoils a reply so that the stream cannot be trusted after
 * it.  Expected: the handle dies, every read in flight fails, and a
 * synchronous read fails too, and returns.  With MUST_BE_IGNORED the
 * reply can be skipped safely: the handle must stay ready, with every
 * read right.
 */
static inline void
expect_handle_dies (const char *argv0, const char *scenario,
                    enum outcome allowed)
{
  struct nbd_handle *h;
  static unsigned char buf[NR_CMDS][65536];
  int errs[NR_CMDS], i, r;
  int64_t cookies[NR_CMDS];

  h = start_reads (argv0, scenario, buf, errs, cookies);
  if (allowed == MUST_BE_IGNORED) {
    if (nbd_aio_is_dead (h))
      FAIL ("%s: the handle died", scenario);
    CHECK (nbd_aio_is_ready (h) == 1);
    for (i = 0; i < NR_CMDS; ++i) {
      CHECK (errs[i] == 0);
      CHECK (nbd_aio_command_completed (h, cookies[i]) == 1);
      if (!is_pattern (buf[i], sizeof buf[i], i * 65536))
        FAIL ("%s: read %d succeeded with wrong data", scenario, i);
    }
    nbd_close (h);
    return;
  }
  check_all_failed (h, scenario, buf[0], errs, cookies);
  nbd_close (h);

  h = connect_scenario (argv0, scenario, false);
  memset (buf[0], 0xaa, sizeof buf[0]);
  r = nbd_pread (h, buf[0], sizeof buf[0], 0, 0);
  if (r != -1)
    FAIL ("%s: nbd_pread returned %d", scenario, r);
  CHECK (strncmp (nbd_get_error (), "nbd_pread: ", 11) == 0);
  CHECK (nbd_aio_is_dead (h) == 1);
  nbd_close (h);
}

/* After the bad reply the handle is either dead, or fully usable. */
static inline void
check_after (struct nbd_handle *h, unsigned char *buf)
{
  if (nbd_aio_is_dead (h)) {
    CHECK (nbd_pread (h, buf, 512, 0, 0) == -1);
    return;
  }
  CHECK (nbd_aio_is_ready (h) == 1);
  memset (buf, 0xaa, 65536);
  CHECK (nbd_pread (h, buf, 65536, 8192, 0) == 0);
  CHECK (is_pattern (buf, 65536, 8192));
}

/* The server's read chunks do not cover the request exactly once.
 * Expected: the read fails with EPROTO, synchronously and
 * asynchronously, and the handle is then dead or fully usable.
 */
static inline void
expect_read_fails_eproto (const char *argv0, const char *scenario)
{
  struct nbd_handle *h;
  static unsigned char buf[65536];
  int err = -1, loops, r;
  int64_t cookie;
  time_t start;

  /* Synchronous, with pread_initialize off: the caller's 0xaa bytes
   * are still in the buffer wherever the server sent nothing, so the
   * read must fail, and with EPROTO.
   */
  h = connect_scenario (argv0, scenario, false);
  memset (buf, 0xaa, sizeof buf);
  r = nbd_pread (h, buf, sizeof buf, 4096, 0);
  if (r == 0)
    FAIL ("%s: the read succeeded; the buffer %s", scenario,
          is_pattern (buf, sizeof buf, 4096)
          ? "matches the pattern"
          : "holds bytes the server never sent");
  CHECK (r == -1);
  CHECK_ERROR (EPROTO, "nbd_pread: ");
  check_after (h, buf);
  nbd_close (h);

  /* Asynchronous: the command is reported as failed. */
  h = connect_scenario (argv0, scenario, true);
  cookie = nbd_aio_pread (h, buf, sizeof buf, 4096,
                          (nbd_completion_callback) {
                            .callback = completion_cb, .user_data = &err },
                          0);
  CHECK (cookie > 0);
  start = time (NULL);
  for (loops = 0; err == -1; ++loops) {
    if (loops >= 100000 || time (NULL) - start > 5)
      FAIL ("%s: the read did not complete", scenario);
    if (nbd_poll (h, 1000) == -1)
      break;
  }
  if (err == -1)
    FAIL ("%s: the completion callback never ran", scenario);
  r = nbd_aio_command_completed (h, cookie);
  if (r == 1)
    FAIL ("%s: the read was reported as successful", scenario);
  CHECK (r == -1);
  CHECK (nbd_get_errno () != 0);
  check_after (h, buf);
  nbd_close (h);
}

#endif /* MISBEHAVE_COMMON_H */
