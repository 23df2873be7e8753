/* replay.c: run each corpus file through the fuzzer's workload, plain build. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

/* Seconds one input may take (both runs) before it counts as a hang. */
#define TIMEOUT 20

static const char *current;

static void
on_alarm (int sig)
{
  static const char msg[] = "replay: hang (timeout) on ";

  (void) sig;
  (void) !write (STDERR_FILENO, msg, sizeof msg - 1);
  (void) !write (STDERR_FILENO, current, strlen (current));
  (void) !write (STDERR_FILENO, "\n", 1);
  _exit (EXIT_FAILURE);
}

static void
replay (const char *path, bool tls)
{
  static uint8_t buf[WORKLOAD_MAX_INPUT + 1];
  FILE *fp = fopen (path, "rb");
  size_t len;

  if (fp == NULL) {
    perror (path);
    exit (EXIT_FAILURE);
  }
  len = fread (buf, 1, sizeof buf, fp);
  fclose (fp);
  current = path;
  alarm (TIMEOUT);
  if (tls)
    workload_tls (buf, len);
  else
    workload_both_ways (buf, len);
  alarm (0);
  printf ("ok %s (%zu bytes)\n", path, len);
}

int
main (int argc, char *argv[])
{
  bool tls = false;
  int i;

  signal (SIGPIPE, SIG_IGN);
  signal (SIGALRM, on_alarm);
  if (argc < 2) {
    fprintf (stderr, "usage: replay [-t] FILE...\n");
    exit (EXIT_FAILURE);
  }
  /* -t: the files are TLS handshakes (fuzz-tls inputs). */
  for (i = 1; i < argc; ++i) {
    if (strcmp (argv[i], "-t") == 0)
      tls = true;
    else
      replay (argv[i], tls);
  }
  exit (EXIT_SUCCESS);
}
