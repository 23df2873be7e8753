/* nbdfuse.h: what the parts of nbdfuse share. */
#ifndef NBDFUSE_H
#define NBDFUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The FUSE API we are written for, the same in every file. */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <libnbd.h>

#include "reconnect.h"

/* How nbdfuse reaches the server (the word after MOUNTPOINT). */
enum mode {
  MODE_URI,                     /* URI, or --uri URI */
  MODE_SQUARE_BRACKET,          /* [ CMD ARGS ... ] */
  MODE_SOCKET_ACTIVATION,       /* --socket-activation CMD ARGS ... */
  MODE_COMMAND,                 /* --command CMD ARGS ... */
  MODE_FD,                      /* --fd N */
  MODE_TCP,                     /* --tcp HOST PORT */
  MODE_UNIX,                    /* --unix SOCKET */
  MODE_VSOCK,                   /* --vsock CID PORT */
};

/* The settings and the facts of the export, fixed before mounting and
 * only read afterwards, by any thread.
 */
struct nbdfuse {
  bool verbose;                 /* -v: library debug and operation trace */
  bool readonly;                /* -r, or the export is read-only */
  bool file_mode;               /* MOUNTPOINT is a regular file */
  const char *filename;         /* the file's name under the mountpoint */
  uint64_t size;                /* the export's size */
  bool can_flush, can_zero;
  struct timespec start_time;   /* the file's times */
  /* --reconnect: all zero when off.  The rest is used only when on. */
  struct reconnect_policy policy;
  enum mode mode;               /* to dial again */
  char **mode_args;
  struct export_facts facts;    /* of the first connection */
  uint64_t replay_bound;        /* --reconnect-buffer */
  bool no_replay;               /* NBDFUSE_TEST_NO_REPLAY: tests only */
};
extern struct nbdfuse nf;

/* The operations the connection threads carry out.  OP_PUNCH writes
 * zeroes and lets the server deallocate them; OP_ZERO keeps them
 * allocated.
 */
enum op { OP_READ, OP_WRITE, OP_FLUSH, OP_PUNCH, OP_ZERO };

/* connect.c */
extern bool mode_allows_multi_conn (enum mode mode);
extern bool mode_can_dial_again (enum mode mode);
extern struct nbd_handle *dial_server (enum mode mode, char **args,
                                       double deadline,
                                       char *why, size_t len);
extern struct nbd_handle *connect_server (enum mode mode, char **args);

/* dispatch.c: one thread per NBD connection. */
extern void start_connections (struct nbd_handle **handles, size_t n);
extern int submit (enum op op, void *buf, uint64_t count, uint64_t offset);
extern void abandon_connections (void);
extern int stop_connections (void);

/* journal.c: with --reconnect, the writes acknowledged since the last
 * flush, kept to be written again after a reconnect.  One lock guards
 * it; during an outage only the thread recovering touches it.
 */
struct journal_entry {
  enum op op;                   /* OP_WRITE, OP_PUNCH or OP_ZERO */
  void *data;                   /* a copy of the write's data, or NULL */
  uint64_t capacity;            /* of DATA */
  uint64_t count, offset;
  uint64_t seq;                 /* in the order acknowledged */
  struct journal_entry *next;
};
extern bool journal_on (void);
extern void journal_add (enum op op, const void *buf, uint64_t count,
                         uint64_t offset);
extern uint64_t journal_mark (void);
extern void journal_flushed (uint64_t mark);
extern bool journal_full (void);
extern struct journal_entry *journal_oldest (void);
extern void journal_clear (void);

/* outage.c: with --reconnect, every connection closes, waits, and
 * takes a new verified handle (or NULL: the outage was not survived).
 */
extern void outage_init (size_t nr_conns);
extern bool outage_raised (void);
extern bool outage_raise (size_t index, const char *why);
extern struct nbd_handle *outage_join (size_t index);
extern void outage_leave (void);
extern void outage_abandon (void);
extern bool outage_export_changed (void);
extern void outage_print_stats (void);

/* operations.c */
extern const struct fuse_operations nbdfuse_operations;

#endif /* NBDFUSE_H */
