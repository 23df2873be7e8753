/* output.c: spool stdout, and the two ways nbdinfo gives up. */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "nbdinfo.h"

FILE *out;
static char *out_buf;
static size_t out_len;

void
out_open (void)
{
  out = open_memstream (&out_buf, &out_len);
  if (out == NULL)
    die_errno ("open_memstream");
}

/* Write everything at once, only after the server has answered every
 * question, so a script never reads half an answer.
 */
void
out_flush (void)
{
  if (fclose (out) == EOF)
    die_errno ("fclose");
  out = NULL;
  if (out_len > 0 && fwrite (out_buf, out_len, 1, stdout) != 1)
    die_errno ("write");
  free (out_buf);
  out_buf = NULL;
  if (fflush (stdout) == EOF)
    die_errno ("write");
}

/* Called after a libnbd call failed: its message says which call. */
void
die_nbd (void)
{
  fprintf (stderr, "%s: %s\n", progname, nbd_get_error ());
  exit (EXIT_FAILURE);
}

void
die_errno (const char *what)
{
  fprintf (stderr, "%s: %s: %s\n", progname, what, strerror (errno));
  exit (EXIT_FAILURE);
}

/* Callbacks only record that memory ran out: nbdinfo gives up here,
 * after the libnbd call has returned and released the handle.
 */
void
die_oom (void)
{
  errno = ENOMEM;
  die_errno ("malloc");
}
