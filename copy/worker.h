/* worker.h: a copy worker's state, the pipeline's (copy-multi.c) and
 * the reconnect layer's (copy-resilient.c) side by side.
 */
#ifndef NBDCOPY_WORKER_H
#define NBDCOPY_WORKER_H

#include <pthread.h>

#include "durable-samples.h"
#include "nbdcopy.h"
#include "range-log.h"

struct worker;

/* A read buffer, busy from its read until its last write is done. */
struct slot {
  struct worker *w;
  char *buf;                    /* request_size bytes, allocated on use */
  uint64_t offset;
  size_t count;
  unsigned refs;                /* the read plus each write in flight */
  bool hash_only;               /* durable already: only --blkhash */
};

struct worker {
  size_t index;                 /* also the connection index */
  pthread_t thread;
  struct nbd_handle *src_h, *dst_h; /* NULL unless that end is NBD */
  struct slot *slots;
  struct slot **free;
  size_t nr_slots, nr_free;
  unsigned zeros_in_flight;     /* NBD zero commands, no slot */
  struct extent_list extents;

  /* With --reconnect only (copy-resilient.c). */
  unsigned others_in_flight;    /* block status and flush commands */
  bool src_dead, dst_dead;      /* which ends to dial again (see broken) */
  char why[256];                /* the first failure, for messages */
  double broken_at;             /* when it was seen */
  double outage_start;          /* first break since progress, or 0 */
  double stall_since;           /* last reply, or first issue when idle */
  struct range_log written;     /* ranges since the last flush */
  struct range_log redo;        /* ranges to copy again */
  struct range_log hash_queue;  /* durable ranges to read for --blkhash */
  struct sample_list samples;   /* of the data written since the flush */
  bool sampled;                 /* the range being copied has one */
  bool hash_only;               /* the range being read is one of them */
  uint64_t ckpt_bytes;          /* written since the last flush */
  uint64_t counted;             /* added to bytes_done since then */
  double ckpt_time;             /* when that flush was */
  bool replaying;               /* reconnected: flush after the next range */
};

/* Commands in flight, NBD or not. */
static inline unsigned
busy (const struct worker *w)
{
  return (w->nr_slots - w->nr_free) + w->zeros_in_flight +
    w->others_in_flight;
}

/* A connection of the worker failed: it must recover. */
static inline bool
broken (const struct worker *w)
{
  return w->src_dead || w->dst_dead;
}

#endif /* NBDCOPY_WORKER_H */
