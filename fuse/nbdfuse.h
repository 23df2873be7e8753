/* nbdfuse.h: what the parts of nbdfuse share. */
#ifndef NBDFUSE_H
#define NBDFUSE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The FUSE API we are written for, the same in every file. */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <libnbd.h>

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
};
extern struct nbdfuse nf;

/* The operations the connection threads carry out.  OP_PUNCH writes
 * zeroes and lets the server deallocate them; OP_ZERO keeps them
 * allocated.
 */
enum op { OP_READ, OP_WRITE, OP_FLUSH, OP_PUNCH, OP_ZERO };

/* connect.c */
extern bool mode_allows_multi_conn (enum mode mode);
extern struct nbd_handle *connect_server (enum mode mode, char **args);

/* dispatch.c: one thread per NBD connection. */
extern void start_connections (struct nbd_handle **handles, size_t n);
extern int submit (enum op op, void *buf, uint64_t count, uint64_t offset);
extern void abandon_connections (void);
extern int stop_connections (void);

/* operations.c */
extern const struct fuse_operations nbdfuse_operations;

#endif /* NBDFUSE_H */
