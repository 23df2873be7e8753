/* basic-debug-env.c: test LIBNBD_DEBUG=1 turns debugging on, to stderr. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libnbd.h>

#include "test-common.h"

static int
quiet_fn (void *user_data, const char *context, const char *msg)
{
  int *calls = user_data;

  (void) context;
  (void) msg;
  (*calls)++;
  return 0;
}

/* Run FN with stderr sent to a temporary file; return bytes written. */
static off_t
stderr_bytes (void (*fn) (void))
{
  char tmpl[] = "/tmp/basic-debug-env-XXXXXX";
  struct stat st;
  int fd, saved;

  fd = mkstemp (tmpl);
  CHECK (fd >= 0);
  unlink (tmpl);
  fflush (stderr);
  saved = dup (2);
  CHECK (saved >= 0);
  CHECK (dup2 (fd, 2) == 2);
  fn ();
  fflush (stderr);
  CHECK (dup2 (saved, 2) == 2);
  close (saved);
  CHECK (fstat (fd, &st) == 0);
  close (fd);
  return st.st_size;
}

static void
create_and_use (void)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_export_name (h, "x") == 0);
  nbd_close (h);
}

int
main (void)
{
  struct nbd_handle *h;
  int calls = 0;

  unsetenv ("LIBNBD_DEBUG");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_get_debug (h) == 0);
  nbd_close (h);
  if (stderr_bytes (create_and_use) != 0)
    FAIL ("debug output on stderr without LIBNBD_DEBUG");

  /* Read when the handle is created. */
  CHECK (setenv ("LIBNBD_DEBUG", "1", 1) == 0);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_get_debug (h) == 1);

  /* With a callback, messages go there instead of stderr. */
  CHECK (nbd_set_debug_callback (h, (nbd_debug_callback) {
        .callback = quiet_fn, .user_data = &calls }) == 0);
  CHECK (nbd_set_export_name (h, "x") == 0);
  CHECK (calls > 0);
  CHECK (nbd_set_debug (h, false) == 0);
  CHECK (nbd_get_debug (h) == 0);
  nbd_close (h);

  /* Without one, they go to stderr. */
  if (stderr_bytes (create_and_use) == 0)
    FAIL ("no debug output on stderr with LIBNBD_DEBUG=1");

  /* Handles created after unsetting are quiet again. */
  unsetenv ("LIBNBD_DEBUG");
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_get_debug (h) == 0);
  nbd_close (h);

  exit (EXIT_SUCCESS);
}
