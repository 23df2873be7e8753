/* durable-samples.h: digests of a few blocks of data that nbdcopy
 * wrote to the destination and made durable there, so that after a
 * reconnect or on a resume it can tell the same disk holding its
 * writes from a blank disk (or another one) of the same size.  Blocks
 * of zeroes would not tell them apart, so only data is sampled.
 */
#ifndef NBDCOPY_DURABLE_SAMPLES_H
#define NBDCOPY_DURABLE_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes a sample covers at most. */
#define SAMPLE_SIZE 4096
/* The samples kept, at most: the checks read this many blocks. */
#define MAX_DURABLE_SAMPLES 64

struct sample {
  uint64_t offset, len, hash;
};

struct sample_list {
  struct sample *v;
  size_t len, cap;
};

/* FNV-1a: enough to see that data changed by accident.  The hash of
 * A then B is sample_hash_more (sample_hash (A), B).
 */
#define SAMPLE_HASH_INIT 0xcbf29ce484222325ULL
extern uint64_t sample_hash (const void *buf, size_t len);
extern uint64_t sample_hash_more (uint64_t h, const void *buf, size_t len);

/* The sample of COUNT bytes read from the source at OFFSET: their
 * first block, if it holds data.  False if it is all zero, or if the
 * copy's unit is larger than a sample.
 */
extern bool sample_of_data (uint64_t offset, const char *buf, size_t count,
                            struct sample *s);

extern void sample_list_add (struct sample_list *l, const struct sample *s);
extern void sample_list_free (struct sample_list *l);

/* These samples' blocks are now durable: keep some of them.  Once
 * MAX_DURABLE_SAMPLES are kept, each new one replaces a random one
 * or none, so that those kept are spread over all offered.
 */
extern void durable_samples_add (const struct sample *v, size_t n);

/* A copy of the samples kept, in OUT (MAX_DURABLE_SAMPLES entries);
 * returns how many.
 */
extern size_t durable_samples_get (struct sample *out);

/* Reads LEN bytes at OFFSET into BUF: 0, or -1 on failure. */
typedef int (*sample_read_fn) (void *opaque, void *buf, size_t len,
                               uint64_t offset);

/* Read every sample kept with FN and compare: 0 when all are equal,
 * 1 when one differs (its offset in *BAD), -1 when a read failed.
 */
extern int durable_samples_check (sample_read_fn fn, void *opaque,
                                  uint64_t *bad);

#endif /* NBDCOPY_DURABLE_SAMPLES_H */
