/* content.c: what file(1) makes of the first sectors of an export. */

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libnbd.h>

#include "nbdinfo.h"

/* Enough for partition tables, filesystem superblocks and the magic
 * of most image formats.
 */
#define PROBE_BYTES 8192

/* Write the bytes to a new temporary file; the caller removes it. */
static void
write_temp (char *path, const void *buf, size_t len)
{
  int fd = mkstemp (path);

  if (fd == -1)
    die_errno ("mkstemp");
  if (len > 0 && write (fd, buf, len) != (ssize_t) len)
    die_errno ("write");
  if (close (fd) == -1)
    die_errno ("close");
}

/* The first line file(1) prints, without its newline, or NULL. */
static char *
run_file (const char *path)
{
  char cmd[64];
  char *line = NULL;
  size_t n = 0;
  ssize_t r;
  FILE *pp;

  /* path comes from our fixed template, so needs no shell quoting. */
  snprintf (cmd, sizeof cmd, "file -b %s", path);
  pp = popen (cmd, "r");
  if (pp == NULL)
    return NULL;
  r = getline (&line, &n, pp);
  pclose (pp);
  if (r <= 0) {
    free (line);
    return NULL;
  }
  if (line[r - 1] == '\n')
    line[r - 1] = '\0';
  return line;
}

/* Best effort: a failed read or a missing file(1) gives NULL.  This
 * must come last for a handle, as it finishes negotiation.
 */
char *
probe_export_content (struct nbd_handle *nbd, int64_t size)
{
  static char buf[PROBE_BYTES];
  char path[] = "/tmp/nbdinfoXXXXXX";
  char *verdict;

  if (!probe_content)
    return NULL;
  if (nbd_aio_is_negotiating (nbd)) {
    if (nbd_opt_go (nbd) == -1)
      die_nbd ();
    /* Some servers (nbd-server 3.25) report size 0 to INFO and the
     * real size only to GO.
     */
    if (size == 0 && (size = nbd_get_size (nbd)) == -1)
      size = 0;
  }
  if (size > PROBE_BYTES)
    size = PROBE_BYTES;
  if (size > 0 && nbd_pread (nbd, buf, size, 0, 0) == -1)
    return NULL;
  write_temp (path, buf, size);
  verdict = run_file (path);
  unlink (path);
  return verdict;
}
