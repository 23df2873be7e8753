/* extent-walk.h: the extents of one metadata context over a range. */
#ifndef COMMON_EXTENT_WALK_H
#define COMMON_EXTENT_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include <libnbd.h>

/* Called for each extent in order, clipped to the request it answers
 * (LENGTH > 0).  Returns false to stop the walk (out of memory).
 */
typedef bool (*extent_walk_fn) (void *opaque, uint64_t offset,
                                uint64_t length, uint64_t flags);

enum extent_walk_result {
  EXTENT_WALK_OK,
  EXTENT_WALK_NBD_ERROR,        /* block status failed: see nbd_get_error */
  EXTENT_WALK_NO_EXTENTS,       /* a reply described no byte of its request */
  EXTENT_WALK_STOPPED,          /* FN returned false */
  EXTENT_WALK_BAD_REPLY,        /* extents out of place: see bad_reply */
};

struct extent_walk {
  const char *context;          /* the only context passed to FN */
  uint64_t max_request;         /* the longest block status request */
  extent_walk_fn fn;
  void *opaque;
  uint64_t pos;                 /* in: start; out: end of what was seen */
  uint64_t request;             /* out: where the last request started */
  uint64_t limit;               /* private: end of the request in flight */
  bool stopped;                 /* private: FN returned false */
  const char *bad_reply;        /* out: why a reply was refused, or NULL */
};

/* Ask for the extents of W->context from W->pos up to END, in requests
 * of at most W->max_request bytes, until every byte is described or
 * something fails.  A reply whose extents do not follow on from those
 * before (a second chunk for the context, describing bytes again) fails
 * its request with EPROTO: no extent is ever moved to fit.
 */
extern enum extent_walk_result extent_walk (struct nbd_handle *nbd,
                                            struct extent_walk *w,
                                            uint64_t end);

/* The same walk one request at a time, for a caller with its own poll
 * loop: extent_walk_aio issues the request for the next part (-1 if it
 * could not: see nbd_get_error); once DONE has run with ERROR,
 * extent_walk_aio_result says what the reply meant.  While it says
 * EXTENT_WALK_OK and W->pos < END, issue the next.
 */
extern int extent_walk_aio (struct nbd_handle *nbd, struct extent_walk *w,
                            uint64_t end, nbd_completion_callback done);
extern enum extent_walk_result extent_walk_aio_result (struct extent_walk *w,
                                                       int error);

#endif /* COMMON_EXTENT_WALK_H */
