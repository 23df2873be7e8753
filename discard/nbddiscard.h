/* nbddiscard.h: what the files of nbddiscard and nbdzero share. */
#ifndef NBDDISCARD_H
#define NBDDISCARD_H

#include <stdbool.h>
#include <stdint.h>

#include <libnbd.h>

/* Which program this is: discard.c or zero.c defines them. */
extern const char *progname;
extern const bool zero_by_default;      /* nbdzero: as if -z were given */

/* Without extended headers a request's length has 32 bits: requests
 * are at most 1 GiB, as in libnbd 1.24's tools, so that each starts
 * where the last ended, still aligned.
 */
#define COMPACT_MAX_REQUEST ((uint64_t) 1 << 30)

struct options {
  bool check;                   /* -c: only look, change nothing */
  bool zero;                    /* -z (nbdzero's default), or --fast-zero */
  bool fast_zero;
  bool quiet;                   /* -q: no warnings, no "image has data" */
  bool verbose;                 /* -v: library debug messages too */
  bool yes;                     /* -y: no question asked */
  bool have_offset, have_length;
  uint64_t offset, length;      /* as given (saturated at UINT64_MAX) */
};

/* main.c */
extern void die_nbd (void) __attribute__ ((noreturn));

/* size.c: a size on the command line: digits with an optional suffix. */
extern uint64_t parse_size (const char *arg);

/* range.c: fit the range given to an export of SIZE bytes, warning
 * where it had to.  Returns false when there is nothing to do (the
 * offset is at or beyond the end): the caller exits successfully.
 */
extern bool fit_range (const struct options *opts, uint64_t size,
                       uint64_t *offset, uint64_t *length);

/* check.c: --check.  Returns the exit status: 0 if every byte of the
 * range is already a hole (with ZERO, reads as zero), 1 if not; dies on
 * an NBD error.
 */
extern int check_range (struct nbd_handle *nbd, const struct options *opts,
                        uint64_t offset, uint64_t length);

/* prompt.c: ask before erasing.  TARGET names the export.  Returns
 * true if the answer starts with 'y' or 'Y'.
 */
extern bool confirm (const char *target, uint64_t offset, uint64_t length);

/* erase.c: trim (or zero with ZERO, passing FLAGS) the range, then
 * flush if the server can.  Dies on an NBD error.
 */
extern void erase (struct nbd_handle *nbd, bool zero, uint32_t flags,
                   uint64_t offset, uint64_t length);

#endif /* NBDDISCARD_H */
