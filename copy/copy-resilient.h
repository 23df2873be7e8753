/* copy-resilient.h: the reconnect layer's interface to the copy above
 * it.  It answers in values and calls nothing above it: where waiting
 * is needed, a step issues a command and returns, the caller polls
 * until the command is done, and the next step reads its result.
 */
#ifndef NBDCOPY_COPY_RESILIENT_H
#define NBDCOPY_COPY_RESILIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "extent-walk.h"
#include "nbdcopy.h"

struct worker;

/* A command the worker waits for alone: block status or flush.  On
 * the caller's stack; the caller polls until DONE.
 */
struct lone_call {
  struct worker *w;
  struct extent_walk walk;      /* block status only */
  uint64_t end;                 /* block status only */
  bool done;
  int error;
};

/* Called by the pipeline as its requests go, with --reconnect (or a
 * request timeout) only: the flag tests are the caller's.
 */
extern void note_failure (struct worker *w, struct rw *rw,
                          const char *what, uint64_t offset, int err,
                          const char *msg);
extern void note_issue (struct worker *w);
extern void note_reply (struct worker *w);
extern int poll_timeout (struct worker *w);
extern void poll_timed_out (struct worker *w);
extern void note_data (struct worker *w, uint64_t offset, const char *buf,
                       size_t count);

/* The ranges to copy: one queued (copied again after a reconnect, or
 * only hashed), else false.
 */
extern bool rc_take_queued (struct worker *w, uint64_t *offset,
                            uint64_t *len);
/* A new range of the source: with --checkpoint=FILE its pieces not yet
 * durable are queued, true; false when it is to be copied whole.
 */
extern bool rc_queue_range (struct worker *w, uint64_t offset,
                            uint64_t len);

/* Around the copy of one range; rc_range_copied says whether a
 * checkpoint is due.
 */
extern void rc_start (struct worker *w);
extern void rc_range_begin (struct worker *w, uint64_t offset,
                            uint64_t len);
extern bool rc_range_copied (struct worker *w, uint64_t len);

/* The source's extents over a range, one block status at a time:
 * while rc_extents_issue is true, poll until C is done, then
 * rc_extents_result (false: stop, the connection broke).
 */
extern void rc_extents_begin (struct worker *w, struct lone_call *c,
                              uint64_t offset, uint64_t len);
extern bool rc_extents_issue (struct lone_call *c);
extern bool rc_extents_result (struct lone_call *c);

/* A checkpoint, once the worker is idle: if rc_flush_issue is true,
 * poll until C is done and pass it to rc_flush_result; then
 * rc_checkpoint_end, false if a connection broke.
 */
extern bool rc_flush_issue (struct worker *w, struct lone_call *c);
extern void rc_flush_result (struct lone_call *c);
extern bool rc_checkpoint_end (struct worker *w);

/* After a break: rc_recover_begin fails what is in flight, the caller
 * polls until nothing is, and rc_recover_end dials the dead ends again
 * and queues the ranges to copy again.
 */
extern void rc_recover_begin (struct worker *w);
extern void rc_recover_end (struct worker *w);

#endif /* NBDCOPY_COPY_RESILIENT_H */
