/* basic-subprocess-fds.c: a server the library starts inherits only the
 * fds it should, the library's own sockets are close-on-exec, and a
 * command is found on PATH as execvp would (a script with no "#!" runs
 * under /bin/sh).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libnbd.h>

#include "test-common.h"

static char dir[] = "/tmp/libnbd-test-fdsXXXXXX";
static char listing[256];
static char self[4096];

/* Run as "basic-subprocess-fds child LISTING NBDKIT-ARGS...": the server
 * the library started.  Write the open fds to LISTING, then become
 * nbdkit.
 */
static void
child (char **argv)
{
  FILE *fp = fopen (argv[2], "w");
  int fd, keep = fp ? fileno (fp) : -1;

  if (fp == NULL)
    _exit (126);
  for (fd = 0; fd < 1024; ++fd)
    if (fd != keep && fcntl (fd, F_GETFD) != -1)
      fprintf (fp, "%d ", fd);
  if (fclose (fp) != 0)
    _exit (126);
  execvp ("nbdkit", &argv[3]);
  _exit (126);
}

static void
read_listing (char *out, size_t len)
{
  FILE *fp = fopen (listing, "r");

  CHECK (fp != NULL);
  if (fgets (out, len, fp) == NULL)
    out[0] = '\0';
  fclose (fp);
}

static void
check_cloexec (struct nbd_handle *h)
{
  int fd = nbd_aio_get_fd (h);

  CHECK (fd >= 0);
  CHECK ((fcntl (fd, F_GETFD) & FD_CLOEXEC) != 0);
}

static void
test_command (void)
{
  struct nbd_handle *h = nbd_create ();
  char fds[256];
  char *argv[] = { self, "child", listing, "nbdkit", "-s",
                   "--exit-with-parent", "null", "size=1M", NULL };

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, argv) == 0);
  CHECK (nbd_get_size (h) == 1024 * 1024);
  check_cloexec (h);
  read_listing (fds, sizeof fds);
  if (strcmp (fds, "0 1 2 ") != 0)
    FAIL ("connect_command: the server had fds \"%s\", want \"0 1 2 \"",
          fds);
  nbd_close (h);
}

static void
test_socket_activation (void)
{
  struct nbd_handle *h = nbd_create ();
  char fds[256];
  char *argv[] = { self, "child", listing, "nbdkit", "-f",
                   "--exit-with-parent", "null", "size=2M", NULL };

  CHECK (h != NULL);
  CHECK (nbd_connect_systemd_socket_activation (h, argv) == 0);
  CHECK (nbd_get_size (h) == 2 * 1024 * 1024);
  check_cloexec (h);
  read_listing (fds, sizeof fds);
  if (strcmp (fds, "0 1 2 3 ") != 0)
    FAIL ("socket activation: the server had fds \"%s\", want \"0 1 2 3 \"",
          fds);
  nbd_close (h);
}

/* A script without "#!" in a directory put first on PATH. */
static void
test_path_script (void)
{
  struct nbd_handle *h = nbd_create ();
  char script[300], path[4096];
  char *argv[] = { "libnbd-test-server", NULL };
  FILE *fp;

  snprintf (script, sizeof script, "%s/libnbd-test-server", dir);
  fp = fopen (script, "w");
  CHECK (fp != NULL);
  fprintf (fp, "exec nbdkit -s --exit-with-parent null size=3M\n");
  CHECK (fclose (fp) == 0);
  CHECK (chmod (script, 0755) == 0);
  snprintf (path, sizeof path, "/nonexistent:%s:%s", dir, getenv ("PATH"));
  CHECK (setenv ("PATH", path, 1) == 0);

  CHECK (h != NULL);
  CHECK (nbd_connect_command (h, argv) == 0);
  CHECK (nbd_get_size (h) == 3 * 1024 * 1024);
  nbd_close (h);
  unlink (script);
}

int
main (int argc, char *argv[])
{
  int stray;
  ssize_t len;

  if (argc > 3 && strcmp (argv[1], "child") == 0)
    child (argv);
  requires_program ("nbdkit");
  len = readlink ("/proc/self/exe", self, sizeof self - 1);
  CHECK (len > 0);
  self[len] = '\0';
  CHECK (mkdtemp (dir) != NULL);
  snprintf (listing, sizeof listing, "%s/fds", dir);

  /* An fd of ours without close-on-exec must not reach the server. */
  stray = open ("/dev/null", O_RDONLY);
  CHECK (stray > 2);

  test_command ();
  test_socket_activation ();
  test_path_script ();

  close (stray);
  unlink (listing);
  rmdir (dir);
  exit (EXIT_SUCCESS);
}
