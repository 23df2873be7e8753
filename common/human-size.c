/* human-size.c: parse and print sizes with binary suffixes ("256k",
 * "1G").
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human-size.h"

/* The shift of each suffix letter, or -1 if C is not a suffix. */
static int
suffix_shift (char c)
{
  switch (tolower ((unsigned char) c)) {
  case 'b': return 0;
  case 'k': return 10;
  case 'm': return 20;
  case 'g': return 30;
  case 't': return 40;
  case 'p': return 50;
  case 'e': return 60;
  default: return -1;
  }
}

/* After the suffix letter only "", "B" or "iB" may follow. */
static int
valid_tail (const char *s)
{
  return strcmp (s, "") == 0 || strcmp (s, "B") == 0 ||
    strcmp (s, "iB") == 0;
}

int64_t
human_size_parse (const char *str, const char **error)
{
  char *end;
  unsigned long long n;
  int shift = 0;

  /* strtoull accepts leading '-' and spaces; sizes never have them. */
  if (!isdigit ((unsigned char) str[0])) {
    *error = "could not parse size";
    return -1;
  }
  errno = 0;
  n = strtoull (str, &end, 10);
  if (errno != 0) {
    *error = "size is too large";
    return -1;
  }
  if (*end != '\0') {
    shift = suffix_shift (*end);
    if (shift < 0 || (end[0] != 'b' && end[0] != 'B' && !valid_tail (end + 1))
        || ((end[0] == 'b' || end[0] == 'B') && end[1] != '\0')) {
      *error = "could not parse size: unknown suffix";
      return -1;
    }
  }
  if (n > (unsigned long long) (INT64_MAX >> shift)) {
    *error = "size is too large";
    return -1;
  }
  return (int64_t) (n << shift);
}

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
