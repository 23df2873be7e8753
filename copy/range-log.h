/* range-log.h: a list of byte ranges of the image, in the order added. */
#ifndef NBDCOPY_RANGE_LOG_H
#define NBDCOPY_RANGE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct range {
  uint64_t offset, length;
};

struct range_log {
  struct range *v;
  size_t len, cap;
};

extern void range_log_add (struct range_log *l, uint64_t offset,
                           uint64_t length);
/* Take the first range added; false if there is none. */
extern bool range_log_take (struct range_log *l, uint64_t *offset,
                            uint64_t *length);
/* Append the last N ranges of FROM (all if N is 0) to TO and empty
 * FROM; returns the bytes moved.
 */
extern uint64_t range_log_move (struct range_log *from,
                                struct range_log *to, size_t n);
extern void range_log_free (struct range_log *l);

#endif /* NBDCOPY_RANGE_LOG_H */
