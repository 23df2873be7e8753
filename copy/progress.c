/* progress.c: the progress bar (-p) and machine-readable progress
 * lines (--progress=FD).  Called only from the main thread.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "nbdcopy.h"

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "1.5 GiB" style, into BUF. */
static const char *
human (char *buf, size_t len, double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  size_t u = 0;

  while (bytes >= 1024 && u < 5) {
    bytes /= 1024;
    u++;
  }
  snprintf (buf, len, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

static void
draw_bar (unsigned pct, uint64_t done, double elapsed, bool final)
{
  char a[32], b[32], c[32];
  const int width = 20;
  int i, fill = pct * width / 100;
  double rate = elapsed > 0 ? done / elapsed : 0;
  double left = rate > 0 && src.size > 0 ? (src.size - done) / rate : 0;

  fputs ("\r[", stderr);
  for (i = 0; i < width; i++)
    fputc (i < fill ? '#' : '.', stderr);
  fprintf (stderr, "] %3u%% %s/%s %s/s ", pct,
           human (a, sizeof a, done),
           src.size >= 0 ? human (b, sizeof b, src.size) : "?",
           human (c, sizeof c, rate));
  if (final)
    fprintf (stderr, "in %.1fs   \n", elapsed);
  else
    fprintf (stderr, "%02d:%02d left   ", (int) left / 60, (int) left % 60);
  fflush (stderr);
}

void
progress_update (bool final)
{
  static double start = -1, last_draw;
  static int last_pct = -1;
  static uint64_t shown;
  uint64_t done = atomic_load (&bytes_done);
  double t = now ();
  unsigned pct;

  if (opt.progress_fd == -1)
    return;
  if (start < 0)
    start = t;
  /* Ranges copied again after a reconnect are not progress: the bar
   * waits for the copy to come back to where it was.
   */
  if (done < shown)
    done = shown;
  shown = done;
  if (final)
    pct = 100;
  else if (src.size > 0)
    pct = done * 100 / src.size;
  else
    pct = 0;
  if (opt.progress_fd >= 0) {
    if ((int) pct != last_pct && dprintf (opt.progress_fd, "%u/100\n",
                                          pct) < 0) {
      perror ("nbdcopy: --progress");
      exit (EXIT_FAILURE);
    }
    last_pct = pct;
    return;
  }
  if (final || t - last_draw >= 0.1) {
    draw_bar (pct, done, t - start, final);
    last_draw = t;
  }
}
