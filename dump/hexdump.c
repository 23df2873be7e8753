/* hexdump.c: print 16 bytes a line, squashing runs of equal lines. */

#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nbddump.h"

/* The ANSI colours of each part of a line, as libnbd's nbddump uses. */
#define GREEN          "22;32"
#define GREY           "22;90"
#define BRIGHT_BLUE    "1;34"
#define BRIGHT_RED     "1;31"
#define BRIGHT_MAGENTA "1;35"

/* One line of output is built here, then written at once.  A coloured
 * line holds at most 34 escapes of 8 bytes plus 150 bytes of text.
 */
struct text {
  char buf[512];
  size_t len;
};

static void
put (struct text *t, const char *s)
{
  size_t n = strlen (s);

  memcpy (&t->buf[t->len], s, n);
  t->len += n;
}

static void
put_colour (struct text *t, const char *code)
{
  if (colour) {
    put (t, "\033[");
    put (t, code);
    put (t, "m");
  }
}

static void
put_hex (struct text *t, const unsigned char *line, size_t fill)
{
  static const char digits[] = "0123456789abcdef";
  size_t i;

  for (i = 0; i < 16; i++) {
    if (i < fill) {
      put_colour (t, line[i] ? BRIGHT_BLUE : GREY);
      t->buf[t->len++] = digits[line[i] >> 4];
      t->buf[t->len++] = digits[line[i] & 15];
      t->buf[t->len++] = ' ';
    }
    else {
      if (i == fill)
        put_colour (t, GREY);
      put (t, "   ");
    }
    if (i == 7)
      put (t, " ");
  }
  if (fill == 16)
    put_colour (t, GREY);
}

/* Letters and digits, other printable ASCII, and the rest shown as a
 * dot; in the C locale, as isalnum and isprint would say.
 */
static void
put_ascii (struct text *t, const unsigned char *line, size_t fill)
{
  size_t i;
  unsigned char c;

  for (i = 0; i < fill; i++) {
    c = line[i];
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
        (c >= 'a' && c <= 'z'))
      put_colour (t, BRIGHT_RED);
    else if (c >= 0x20 && c < 0x7f)
      put_colour (t, BRIGHT_MAGENTA);
    else {
      put_colour (t, GREY);
      put (t, colour ? "\u00b7" : ".");
      continue;
    }
    t->buf[t->len++] = (char) c;
  }
  put_colour (t, GREY);
  for (; i < 16; i++)
    put (t, " ");
}

static void
print_line (const struct hexdump *hd)
{
  struct text t = { .len = 0 };
  const char *bar = colour ? "\u2502" : "|";

  put_colour (&t, GREEN);
  t.len += sprintf (&t.buf[t.len], "%010" PRIx64, hd->line_offset);
  put_colour (&t, GREY);
  put (&t, ": ");
  put_hex (&t, hd->line, hd->fill);
  put (&t, bar);
  put_ascii (&t, hd->line, hd->fill);
  put (&t, bar);
  put (&t, "\n");
  if (colour)
    put (&t, "\033[0m");
  fwrite (t.buf, 1, t.len, stdout);
}

void
hexdump_init (struct hexdump *hd, uint64_t offset, uint64_t size)
{
  memset (hd, 0, sizeof *hd);
  hd->line_offset = offset;
  hd->size = size;
}

/* A line equal to the one printed last becomes a splat, unless it is
 * the first, the last of the export, or short: a short line would not
 * look the same as the full one before it.
 */
static void
end_line (struct hexdump *hd)
{
  if (hd->printed && hd->fill == 16 && hd->line_offset + 16 < hd->size &&
      memcmp (hd->line, hd->last, 16) == 0) {
    if (!hd->squashing)
      fputs (colour ? "\u2606\n" : "*\n", stdout);
    hd->squashing = true;
  }
  else {
    print_line (hd);
    memcpy (hd->last, hd->line, 16);
    hd->printed = true;
    hd->squashing = false;
  }
  hd->line_offset += 16;
  hd->fill = 0;
}

void
hexdump_data (struct hexdump *hd, const unsigned char *buf, size_t len)
{
  size_t n;

  while (len > 0) {
    n = 16 - hd->fill < len ? 16 - hd->fill : len;
    memcpy (&hd->line[hd->fill], buf, n);
    hd->fill += n;
    buf += n;
    len -= n;
    if (hd->fill == 16)
      end_line (hd);
  }
}

/* Whole zero lines after the second of a run are all squashed into the
 * splat the second printed, except the export's last line, which can
 * only be the run's last: so they are skipped without looking at them.
 */
void
hexdump_zeroes (struct hexdump *hd, uint64_t len)
{
  uint64_t lines, i;
  size_t n;

  if (hd->fill > 0) {           /* first complete the line begun */
    n = 16 - hd->fill < len ? 16 - hd->fill : len;
    memset (&hd->line[hd->fill], 0, n);
    hd->fill += n;
    len -= n;
    if (hd->fill < 16)
      return;
    end_line (hd);
  }

  lines = len / 16;
  for (i = 0; i < lines; i++) {
    if (i == 2 && lines > 3) {
      hd->line_offset += (lines - 3) * 16;
      i = lines - 1;
    }
    memset (hd->line, 0, 16);
    hd->fill = 16;
    end_line (hd);
  }

  memset (hd->line, 0, len % 16);
  hd->fill = len % 16;
}

/* Print the short line left at the end of the dump, if any. */
void
hexdump_finish (struct hexdump *hd)
{
  if (hd->fill > 0)
    end_line (hd);
}

/* Leave the terminal in its usual colours. */
void
colour_restore (void)
{
  if (colour)
    fputs ("\033[0m", stdout);
}
