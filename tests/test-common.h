/* test-common.h: small helpers shared by the C tests. */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include <libnbd.h>

/* Exit status automake reads as "skipped". */
#define SKIP_STATUS 77

/* Fail the test with a message, the file and the line. */
#define FAIL(fmt, ...)                                                  \
  do {                                                                  \
    fprintf (stderr, "%s:%d: FAIL: " fmt "\n",                          \
             __FILE__, __LINE__, ##__VA_ARGS__);                        \
    exit (EXIT_FAILURE);                                                \
  } while (0)

/* Check a condition; on failure print it and the library's last error. */
#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond))                                                        \
      FAIL ("check failed: %s (last error: %s, errno %d)", #cond,       \
            nbd_get_error () ? nbd_get_error () : "(none)",             \
            nbd_get_errno ());                                          \
  } while (0)

/* Skip the test (exit 77) with a reason when a program is missing. */
static inline void
requires_program (const char *prog)
{
  char cmd[256];

  snprintf (cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
  if (system (cmd) != 0) {
    fprintf (stderr, "SKIP: %s is not installed\n", prog);
    exit (SKIP_STATUS);
  }
}

/* Check that the last error has errno ERR and starts with PREFIX. */
#define CHECK_ERROR(err, prefix)                                        \
  do {                                                                  \
    const char *msg_ = nbd_get_error ();                                \
    if (nbd_get_errno () != (err))                                      \
      FAIL ("expected errno %d (%s), got %d; message: %s",             \
            (err), strerror (err), nbd_get_errno (),                    \
            msg_ ? msg_ : "(null)");                                    \
    if (msg_ == NULL || strncmp (msg_, (prefix), strlen (prefix)) != 0) \
      FAIL ("expected message starting \"%s\", got \"%s\"",             \
            (prefix), msg_ ? msg_ : "(null)");                          \
  } while (0)

/* A handle connected to the server ARGV starts on its stdin and stdout
   (nbd_connect_command, with the handle's default settings); any
   failure fails the test.  A test that changes a setting before it
   connects writes the steps out. */
static inline struct nbd_handle *
connect_command_or_fail (char **argv)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, argv) == 0);
  return h;
}

#endif /* TEST_COMMON_H */
