/* nbddump.h: what the files of nbddump share. */
#ifndef NBDDUMP_H
#define NBDDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libnbd.h>

extern const char *progname;
extern bool colour;             /* --colour, default if stdout is a tty */

/* hexdump.c: lines of 16 bytes, with runs of equal lines squashed. */
struct hexdump {
  uint64_t size;                /* of the export: its last line is never
                                   squashed */
  uint64_t line_offset;         /* where the line being filled starts */
  unsigned char line[16];
  size_t fill;                  /* bytes in line[], 0 to 16 */
  unsigned char last[16];       /* the line printed last */
  bool printed;                 /* a line has been printed */
  bool squashing;               /* a splat stands for the lines since */
};
extern void hexdump_init (struct hexdump *hd, uint64_t offset,
                          uint64_t size);
extern void hexdump_data (struct hexdump *hd, const unsigned char *buf,
                          size_t len);
extern void hexdump_zeroes (struct hexdump *hd, uint64_t len);
extern void hexdump_finish (struct hexdump *hd);
extern void colour_restore (void);

/* extents.c: which parts of the export read as zeroes (base:allocation). */
struct extent {
  uint64_t end;                 /* offset of the next extent */
  bool zero;
};
struct extent_map {
  struct nbd_handle *nbd;
  uint64_t min;                 /* requests are whole blocks of this */
  uint64_t size;                /* of the export */
  bool usable;                  /* the server gave us base:allocation */
  uint64_t start;               /* of the first extent in v */
  struct extent *v;             /* in order, each up to the next */
  size_t len, cap;
  size_t next;                  /* where the last lookup ended */
};
extern void extent_map_init (struct extent_map *map, struct nbd_handle *nbd,
                             uint64_t min, uint64_t size);
extern void extent_map_free (struct extent_map *map);
extern uint64_t extent_at (struct extent_map *map, uint64_t offset,
                           uint64_t end, bool *zero);

/* The end of a request ending at N, widened to a whole block of MIN
 * bytes but not past the end of the export at SIZE.
 */
static inline uint64_t
block_end (uint64_t n, uint64_t min, uint64_t size)
{
  n += (min - n % min) % min;
  return n < size ? n : size;
}

/* dump.c: read the export and print it. */
extern void dump (struct nbd_handle *nbd, uint64_t offset, uint64_t length,
                  uint64_t size);

#endif /* NBDDUMP_H */
