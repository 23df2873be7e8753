/* cookie-index.h: every unretired command, found by its cookie. */
#ifndef LIBNBD_COOKIE_INDEX_H
#define LIBNBD_COOKIE_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct command;

/* Buckets the index starts with, inside the handle (a power of 2:
 * cookies count up, so consecutive commands land in distinct buckets).
 */
#define COOKIE_INDEX_INLINE 128

/* A chained hash of commands by cookie, through command.bucket_next.
 * It doubles its buckets as commands accumulate, so that a lookup
 * stays O(1) however many are queued; if memory runs out it keeps the
 * buckets it has (slower, never wrong).
 */
struct cookie_index {
  struct command **heap;        /* the buckets once grown, or NULL */
  size_t mask;                  /* buckets - 1; 0 until first use */
  size_t count;
  struct command *inline_buckets[COOKIE_INDEX_INLINE];
};

extern void nbd_internal_cookie_index_insert (struct cookie_index *ix,
                                              struct command *cmd);
extern struct command *nbd_internal_cookie_index_find
  (struct cookie_index *ix, uint64_t cookie);
extern void nbd_internal_cookie_index_remove (struct cookie_index *ix,
                                              struct command *cmd);
extern void nbd_internal_cookie_index_reset (struct cookie_index *ix);

#endif /* LIBNBD_COOKIE_INDEX_H */
