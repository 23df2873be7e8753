/* human-size.c: sizes as the largest exact power-of-1024 unit. */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nbdinfo.h"

/* 1048576 becomes "1M" and 3072 "3K", but 1536 (not a whole number of
 * K) stays "1536".  Returns true when a unit was added.  buf holds at
 * least HUMAN_SIZE_MAX bytes.
 */
bool
human_size (char *buf, uint64_t bytes)
{
  static const char units[] = "KMGTPE";
  int shifts = 0;

  while (bytes != 0 && (bytes & 1023) == 0 && shifts < 6) {
    bytes >>= 10;
    shifts++;
  }
  if (shifts == 0) {
    snprintf (buf, HUMAN_SIZE_MAX, "%" PRIu64, bytes);
    return false;
  }
  snprintf (buf, HUMAN_SIZE_MAX, "%" PRIu64 "%c", bytes, units[shifts - 1]);
  return true;
}
