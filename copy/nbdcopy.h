/* nbdcopy.h: the types, settings and functions shared by nbdcopy's files. */
#ifndef NBDCOPY_H
#define NBDCOPY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libnbd.h>

#include "reconnect.h"

#define MIN_REQUEST_SIZE 4096
#define MAX_REQUEST_SIZE (32 * 1024 * 1024)
/* The largest --blkhash block, as in libnbd 1.24. */
#define MAX_BLKHASH_BLOCK_SIZE (UINT64_C (2) * 1024 * 1024 * 1024)
/* Workers take the image in ranges of this size, one at a time. */
#define WORK_RANGE_SIZE (128 * 1024 * 1024)
/* The same with --reconnect (see work_range_size). */
#define RESILIENT_RANGE_SIZE (32 * 1024 * 1024)
/* The largest single zero request sent to an NBD server (its length is
 * 32 bits without extended headers).
 */
#define MAX_ZERO_SIZE (1024 * 1024 * 1024)
/* --reconnect's checkpoints: a flush per connection after this many
 * bytes or seconds.
 */
#define CHECKPOINT_BYTES (16ULL * 1024 * 1024 * 1024)
#define CHECKPOINT_SECONDS 30
#define MIN_CHECKPOINT_BYTES (1024 * 1024)

enum rw_kind { RW_NBD, RW_FILE, RW_BLOCK, RW_PIPE, RW_NULL };

/* One end of the copy. */
struct rw {
  enum rw_kind kind;
  const char *name;             /* as the user wrote it, for messages */
  bool is_source;
  int64_t size;                 /* -1 when unknown (a pipe source) */
  int fd;                       /* file, block device, pipe; else -1 */
  bool can_punch, can_zero_range; /* files: fallocate modes still worth
                                     trying (atomic: workers share them) */
  /* NBD only. */
  const char *uri;              /* NULL for a subprocess */
  char **argv;                  /* subprocess command, else NULL */
  struct nbd_handle **handles;  /* one per connection */
  size_t nr_handles;
  bool can_multi_conn, can_zero, can_extents, can_flush, read_only;
  uint32_t preferred;           /* preferred block size, 0 if unknown */
  uint32_t minimum;             /* minimum block size: a power of 2, 1 if
                                   the server asks for none */
  struct export_facts facts;    /* of the first connection, which every
                                   reconnection must match */
};

/* One extent of the source: LENGTH bytes that are data, or read as zero. */
struct extent {
  uint64_t offset;
  uint64_t length;
  bool zero;
};

struct extent_list {
  struct extent *v;
  size_t len, cap;
};

/* Settings from the command line (main.c). */
struct options {
  bool allocated;
  unsigned connections;
  bool destination_is_zero;
  bool extents;
  bool flush;
  bool multi_writers;
  int progress_fd;              /* -1 = off, -2 = bar on stderr */
  uint64_t queue_size;
  uint64_t request_size;
  unsigned requests;
  uint64_t sparse_size;
  bool synchronous;
  unsigned threads;
  bool verbose;
  const char *blkhash_digest;   /* NULL = no blkhash */
  uint64_t blkhash_block_size;
  const char *blkhash_file;     /* NULL = stdout */
  struct reconnect_policy rc;   /* --reconnect and its companions */
  uint64_t checkpoint_bytes;    /* flush after this much written ... */
  double checkpoint_seconds;    /* ... or this long */
  bool no_replay;               /* testing only: lose unflushed writes */
  const char *checkpoint_file;  /* --checkpoint=FILE, else NULL */
  bool resume;                  /* that file exists: an earlier run's */
  /* Not an option: what the ends and --blkhash need (main.c).  Every
   * work range, zero extent and read starts on a multiple of it, so
   * that no request breaks either end's minimum block size.
   */
  uint64_t unit;
};

extern struct options opt;

/* Whether workers checkpoint (copy-resilient.c): with --reconnect or
 * --checkpoint.
 */
static inline bool
resilient (void)
{
  return opt.rc.window > 0 || opt.checkpoint_file != NULL;
}
extern struct rw src, dst;

/* Bytes of the source finished so far, for the progress display. */
extern _Atomic uint64_t bytes_done;

/* What reconnecting cost (copy-resilient.c). */
extern struct reconnect_stats rc_stats;

/* endpoint.c */
extern void open_source (struct rw *rw, const char *name, char **argv);
extern void open_destination (struct rw *rw, const char *name, char **argv,
                              int64_t src_size);
extern void connect_more (struct rw *rw, size_t n);
extern void close_endpoint (struct rw *rw);
extern const char *rw_ops_name (enum rw_kind k);

/* nbd-ops.c */
extern void nbd_open (struct rw *rw);
extern struct nbd_handle *nbd_connect_one (struct rw *rw);
/* The same, or NULL with the reason in ERR (LEN bytes) and *ERRNUM. */
extern struct nbd_handle *nbd_try_connect (struct rw *rw, char *err,
                                           size_t len, int *errnum);

/* rw.c: synchronous operations on any endpoint.  CONN picks the NBD
 * connection.  Every failure prints a message naming the endpoint and
 * offset and exits.
 */
extern size_t rw_pread (struct rw *rw, size_t conn, void *buf, size_t len,
                        uint64_t offset);
extern void rw_pwrite (struct rw *rw, size_t conn, const void *buf,
                       size_t len, uint64_t offset);
extern void rw_zero (struct rw *rw, size_t conn, uint64_t offset,
                     uint64_t len);
extern void rw_flush (struct rw *rw);
extern void rw_check_writeback (struct rw *rw);
extern void rw_extents (struct rw *rw, size_t conn, uint64_t offset,
                        uint64_t len, struct extent_list *out);
extern bool rw_copy_file_range (struct rw *from, struct rw *to,
                                uint64_t offset, uint64_t len);
extern void die_io (struct rw *rw, const char *what, uint64_t offset,
                    int err, const char *msg)
  __attribute__ ((noreturn));
/* "nbdcopy: MESSAGE" and exit with STATUS; safe from any thread. */
extern void die (int status, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 2, 3)));

/* extents.c */
extern void extent_add (struct extent_list *l, uint64_t offset,
                        uint64_t length, bool zero);
extern void extents_align (struct extent_list *l, uint64_t align,
                           uint64_t end);
extern bool is_zero (const char *buf, size_t len);
extern const char *zero_buffer (size_t len);
extern uint64_t work_range_size (void);

/* copy-multi.c and copy-sync.c */
extern void copy_multi (void);
extern void copy_sync (void);

/* Hands the LEN bytes at OFFSET just read from the source to the
 * destination through the callbacks, split into zero and data runs
 * by the --sparse setting.
 */
typedef void (*run_fn) (void *opaque, uint64_t offset, size_t len,
                        size_t buf_offset, bool zero);
extern void split_runs (const char *buf, size_t len, uint64_t offset,
                        run_fn fn, void *opaque);

/* progress.c */
extern void progress_update (bool final);

/* blkhash.c */
extern void blkhash_init (int64_t size);
extern void blkhash_data (uint64_t offset, const char *buf, size_t len);
extern void blkhash_zero (uint64_t offset, uint64_t len);
extern void blkhash_finish (uint64_t size);
extern bool blkhash_digest_ok (const char *name);

#endif /* NBDCOPY_H */
