/* internal.h: the handle, commands and cross-file internals of lib/. */
#ifndef LIBNBD_INTERNAL_H
#define LIBNBD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <pthread.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netdb.h>
#include <string.h>
#include <endian.h>
#include <inttypes.h>

/* The library checks pointer arguments at run time (EFAULT), so the
 * header's nonnull attributes must not let the compiler drop the
 * checks.
 */
#define LIBNBD_ATTRIBUTE_NONNULL(...)
#include "libnbd.h"
#include "nbd-protocol.h"
#include "states.h"
#include "unlocked.h"
#include "cookie-index.h"

/* The generated wrappers (lib/api.c) test their checks with this. */
#define unlikely(x) __builtin_expect (!!(x), 0)

/* Largest payload a command may carry (libnbd's limit too). */
#define MAX_REQUEST_SIZE (64 * 1024 * 1024)

/* What nbd_get_protocol reports (h->protocol). */
enum { PROTOCOL_UNKNOWN, PROTOCOL_OLDSTYLE, PROTOCOL_NEWSTYLE,
       PROTOCOL_NEWSTYLE_FIXED };

/* Size of the read-ahead buffer and of the gathered send buffer. */
#define RECV_AHEAD_SIZE (64 * 1024)
#define SEND_GATHER_SIZE (128 * 1024)
/* Reads at least this long bypass the read-ahead buffer. */
#define RECV_DIRECT_SIZE (32 * 1024)
/* While such a read is in flight the next reply may be its data, so
 * the read-ahead takes at most this much: enough for a burst of small
 * replies, little of a large payload to copy out again.
 */
#define RECV_AHEAD_NEAR_LARGE (4 * 1024)
/* Over TCP, poll waits for at most this much of a large payload before
 * it wakes the reader (SO_RCVLOWAT, lib/socket.c set_recv_lowat).
 */
#define RECV_LOWAT_MAX (256 * 1024)
/* Payloads under this size are copied into the gathered send. */
#define SMALL_PAYLOAD (64 * 1024)

/* A growable vector of strings (NULL-terminated when used as argv). */
struct string_vector {
  char **ptr;
  size_t len;                   /* strings, not counting the NULL */
  size_t cap;
};

/* A meta context the server agreed to. */
struct meta_context {
  char *name;                   /* never NULL */
  uint32_t context_id;
};
struct meta_vector {
  struct meta_context *ptr;
  size_t len;
  size_t cap;
};

/* Byte ranges of a read that reply chunks have covered, so a read can
 * be failed unless every byte was sent exactly once (utils.c).
 */
struct range {
  uint64_t start, end;          /* [start, end) relative to the command */
};
struct range_vector {
  struct range *ptr;
  size_t len;
  size_t cap;
  uint64_t total;               /* sum of the lengths added */
};

/* The socket layer: plain sockets now, GnuTLS later.  The state
 * machine never knows which.
 */
struct socket;
struct socket_ops {
  ssize_t (*recv) (struct socket *sock, void *buf, size_t len);
  ssize_t (*sendv) (struct socket *sock, const struct iovec *iov, int n,
                    int flags);
  bool (*pending) (struct socket *sock);  /* buffered decrypted data */
  int (*get_fd) (struct socket *sock);
  int (*shut_writes) (struct socket *sock);
  int (*close) (struct socket *sock);
};
struct socket {
  const struct socket_ops *ops;
  int fd;
  const char *why;              /* TLS: why the last call failed, or NULL */
  int lowat;                    /* plain TCP: its SO_RCVLOWAT now; 0: a
                                   socket whose mark is left alone */
};

/* Callbacks a command carries; the wrapper frees what we did not take. */
enum cb_kind { CB_NONE, CB_CHUNK, CB_EXTENT, CB_EXTENT64 };
struct command_cb {
  enum cb_kind kind;            /* which member of fn is in use */
  union {
    nbd_chunk_callback chunk;
    nbd_extent_callback extent;
    nbd_extent64_callback extent64;
  } fn;
  nbd_completion_callback completion;
};

/* Where a command is in its life; its list of the handle says the same. */
enum command_state {
  CMD_QUEUED,                   /* cmds_to_issue */
  CMD_SENDING,                  /* cmds_sending: gathered, not all sent */
  CMD_IN_FLIGHT,                /* cmds_in_flight: may be answered */
  CMD_DONE,                     /* cmds_done: waiting to be retired */
};

/* A command in one of the four lists of the handle, and (NBD_CMD_DISC
 * aside) in the cookie index until it is retired.
 */
struct command {
  struct command *next;
  struct command *prev;         /* in flight and done: doubly linked */
  struct command *bucket_next;  /* the cookie index's chain */
  enum command_state state;
  uint16_t flags;               /* NBD_CMD_FLAG_* sent on the wire */
  uint16_t type;                /* NBD_CMD_* */
  uint64_t cookie;
  uint64_t offset;
  uint64_t count;
  void *data;                   /* read or write buffer, or NULL */
  char *filter;                 /* block status payload (owned), or NULL */
  uint32_t filter_len;
  struct command_cb cb;
  struct range_vector seen;     /* reads: bytes the reply covered */
  bool reply_done;              /* the last chunk has arrived */
  bool extents_seen;            /* block status: extents were passed on */
  bool initialized;             /* a read whose buffer the call cleared
                                   (pread_initialize) */
  bool zero_unfilled;           /* a synchronous nbd_pread with
                                   pread_initialize: zero what was not
                                   filled if it fails (commands.c) */
  bool sync;                    /* a synchronous call's, which its thread
                                   waits for and retires: unseen by the
                                   aio calls, never on cmds_done */
  pthread_t owner;              /* sync: the thread that waits for it */
  int error;                    /* errno to report; 0 = success */
  size_t send_start, send_end;  /* being sent: where its bytes begin
                                   and end in the gathered send
                                   (socket.c) */
};

/* One option request of opt mode in progress, and its callbacks. */
struct opt_request {
  uint32_t option;              /* NBD_OPT_* being sent */
  union {
    nbd_list_callback list;
    nbd_context_callback context;
  } fn;
  nbd_completion_callback completion;
  int error;                    /* errno when the server refused */
  uint32_t reply;               /* the server's error reply, or 0 */
};

struct nbd_handle {
  pthread_mutex_t lock;         /* taken by the generated wrappers only */
  /* Threads sharing the handle (waiters.c), all under the lock. */
  pthread_cond_t wait_cond;     /* a poll with the lock released ended */
  unsigned pollers;             /* threads in such a poll */
  unsigned program_pollers;     /* of them, in nbd_poll or nbd_poll2 */
  unsigned waiters;             /* threads waiting on wait_cond */
  unsigned exclusive;           /* synchronous calls with callbacks */
  int wake_fd;                  /* eventfd waking the pollers, or -1 */
  uint64_t wake_gen;            /* wake-ups written so far */
  unsigned wake_unseen;         /* pollers of the last wake-up not yet
                                   back: drained when none is left */
  char *hname;                  /* never NULL, "nbd<N>" by default */
  uintptr_t private_data;       /* atomic: its calls skip the lock */

  /* Settings. */
  char *export_name;            /* never NULL */
  int tls;                      /* LIBNBD_TLS_* */
  char *tls_certificates;
  bool tls_verify_peer;
  char *tls_username;
  char *tls_hostname;
  char *tls_psk_file;
  char *tls_priority;           /* NULL: the default (tls-priority.c) */
  bool request_eh;              /* extended headers */
  bool request_sr;              /* structured replies */
  bool request_meta;            /* connect sets meta contexts */
  bool request_block_size;
  bool full_info;
  bool pread_initialize;
  bool opt_mode;
  bool batching;                /* gather sends, defer while busy */
  bool move_lowat;              /* TCP: raise SO_RCVLOWAT for large reads
                                   (socket.c set_recv_lowat) */
  uint32_t gflags;              /* LIBNBD_HANDSHAKE_FLAG_* we accept */
  uint32_t strict;              /* LIBNBD_STRICT_* */
  uint32_t uri_allow_transports;
  int uri_allow_tls;
  bool uri_allow_local_file;
  bool uri_allow_tls_priority;
  struct string_vector request_meta_contexts;
  char *socket_activation_name;

  /* Debugging. */
  bool debug;
  nbd_debug_callback debug_callback;

  /* What the server said. */
  int protocol;                 /* PROTOCOL_* */
  uint16_t server_gflags;
  bool eflags_valid;            /* an export's facts are known */
  uint64_t exportsize;
  uint16_t eflags;
  uint32_t block_minimum, block_preferred, block_maximum;
  char *canonical_name;
  char *description;
  bool structured_replies;
  bool extended_headers;
  bool tls_negotiated;
  bool meta_valid;              /* meta_contexts answers a SET request */
  struct meta_vector meta_contexts;

  /* Connecting. */
  struct socket *sock;
  struct sockaddr_storage connaddr;
  socklen_t connaddr_len;
  char *hostname, *port;        /* connect_tcp */
  struct addrinfo *result, *rp; /* connect_tcp addresses still to try */
  int connect_errno;            /* first error of the addresses tried */
  struct string_vector argv;    /* connect_command/socket activation */
  pid_t pid;                    /* subprocess, or 0 */
  char *sact_tmpdir, *sact_sockpath;
  char *uri;                    /* connect_uri, for get_uri */

  /* State machine. */
  enum state state;             /* the actual state */
  enum state public_state;      /* read by lock-free calls (atomic) */
  unsigned public_dir;          /* its aio direction (atomic) */
  bool force_send;              /* READY: send the batch now */
  bool dead_after_abort;        /* OPT_ABORT ends a failed connect:
                                   DEAD, not CLOSED */
  bool write_was_wanted;        /* the direction before the last
                                   NotifyRead included writing */
  enum state reply_parked;      /* a reply blocked half-way, or 0 */

  /* Negotiation: the option being exchanged. */
  struct opt_request opt;
  uint32_t opt_current;         /* NBD_OPT_* being exchanged */
  struct string_vector opt_queries; /* explicit queries of *_queries */
  bool opt_queries_set;         /* use opt_queries, not the defaults */
  int opt_count;                /* contexts or exports seen so far */
  uint32_t cflags;              /* client flags we sent */
  struct nbd_fixed_new_option_reply opt_reply;
  char *opt_payload;            /* option reply payload, or NULL */

  /* Raw I/O of the state machine: recv_into_rbuf/send_from_wbuf. */
  void *rbuf;                   /* where the next bytes go */
  size_t rlen;                  /* bytes still wanted */
  const void *wbuf;             /* what is still to send */
  size_t wlen;
  int wflags;                   /* MSG_MORE etc. for wbuf */
  union {
    struct nbd_old_handshake old_handshake;
    struct nbd_new_handshake_finish export_name_reply;
    uint64_t magic[2];
    uint32_t cflags;
    uint16_t gflags;
    struct nbd_simple_reply simple;
    struct nbd_structured_reply structured;
    struct nbd_extended_reply extended;
  } sbuf;                       /* scratch for fixed-size messages */
  char *wscratch;               /* owned option payload being sent */

  /* Read-ahead: bytes received beyond what the state machine asked. */
  char *ahead;                  /* RECV_AHEAD_SIZE bytes */
  size_t ahead_start, ahead_end;
  bool recv_drained;            /* a recv came back short since the last
                                   NotifyRead: another would block */
  unsigned large_reads;         /* unfinished reads of RECV_DIRECT_SIZE
                                   or more (commands.c) */

  /* Gathered sends: headers and small payloads of queued commands. */
  char *gather;                 /* SEND_GATHER_SIZE bytes */
  size_t gather_len, gather_sent;
  const char *big_payload;      /* a large write payload after gather */
  size_t big_len, big_sent;

  /* The reply being read. */
  struct command *reply_cmd;    /* the command it answers, or NULL */
  uint16_t chunk_flags, chunk_type;
  uint32_t chunk_length;
  uint64_t reply_offset;        /* extended: the chunk header's offset */
  bool chunk_offset_wrong;      /* extended: not the request's offset */
  char *chunk_payload;          /* small chunk payloads, malloc'd */
  struct {                      /* head of a data or hole chunk */
    uint64_t offset;
    uint32_t length;            /* hole length; unused for data */
  } NBD_PACKED chunk_head;
  uint64_t chunk_data_offset;   /* offset of the data being received */
  uint64_t chunk_data_count;

  /* Commands: to issue (FIFO), being sent (FIFO), in flight (newest
   * first), done (FIFO).  A command is in flight, and may be answered, only once
   * its request and whole payload have left: until then its buffer is
   * still being read, so a reply to it is the server's error.
   */
  struct command *cmds_to_issue, *cmds_to_issue_tail;
  struct command *cmds_sending, *cmds_sending_tail;
  struct command *cmds_in_flight;
  struct cookie_index cookies;  /* every unretired command but DISC */
  struct command *cmds_done, *cmds_done_tail;
  int in_flight;                /* all unretired commands but done ones */
  int aio_in_flight;            /* of them, not a synchronous call's:
                                   what nbd_aio_in_flight reads (atomic) */
  bool issuing_sync;            /* the next command queued is a
                                   synchronous call's (commands.c) */
  uint64_t unique;              /* last cookie handed out */
  bool disconnect_request;      /* NBD_CMD_DISC queued or sent */
  bool disconnect_waiting;      /* a disconnect waits for synchronous
                                   calls to finish (waiters.c) */

  /* Statistics. */
  uint64_t bytes_sent, chunks_sent, bytes_received, chunks_received;
};

/* The functions of lib/, file by file, from the bottom layer up.
 * Files not listed define only public calls (nbd_unlocked_* in
 * unlocked.h, or the hand-written nbd_create and nbd_close): handle.c
 * (the handle and its settings), rw.c (the data commands), uri.c
 * (connect_uri), uri-write.c (get_uri), uri-ssh.c (the nbd+ssh
 * transport); the helpers those three share are in uri.h.
 */

/* ---- errors.c: the thread-local error and the API call context ---- */
extern void nbd_internal_set_error_context (const char *context);
extern const char *nbd_internal_get_error_context (void);
extern void nbd_internal_set_last_error (int errnum, char *error);
extern void nbd_internal_set_error_text (const char *text);
/* The error of a call made from a callback of its own handle. */
extern void nbd_internal_refuse_nested_call (void);

/* Set the thread-local error, prefixed by the current API call name.
 * Keeps errno as it was.
 */
#define set_error(errnum, fs, ...)                                      \
  do {                                                                  \
    int e_ = errno;                                                     \
    int n_ = (errnum);                                                  \
    const char *ctx_ = nbd_internal_get_error_context ();               \
    char *m_;                                                           \
    int r_;                                                             \
    if (n_ == 0)                                                        \
      r_ = asprintf (&m_, "%s: " fs, ctx_, ##__VA_ARGS__);              \
    else                                                                \
      r_ = asprintf (&m_, "%s: " fs ": %s", ctx_, ##__VA_ARGS__,        \
                     strerror (n_));                                    \
    if (r_ >= 0)                                                        \
      nbd_internal_set_last_error (n_, m_);                             \
    errno = e_;                                                         \
  } while (0)

/* ---- debug.c: debug messages ---- */
extern void nbd_internal_debug (struct nbd_handle *h, const char *fs, ...)
  __attribute__ ((__format__ (__printf__, 2, 3)));
#define debug(h, fs, ...)                                               \
  do {                                                                  \
    if ((h)->debug)                                                     \
      nbd_internal_debug ((h), (fs), ##__VA_ARGS__);                    \
  } while (0)

/* ---- callbacks (macros, used across lib/ and by lib/api.c) ---- */

/* Free a callback struct's user data exactly once. */
#define FREE_CALLBACK(cb)                                               \
  do {                                                                  \
    if ((cb).free)                                                      \
      (cb).free ((cb).user_data);                                       \
    (cb).callback = NULL;                                               \
    (cb).free = NULL;                                                   \
  } while (0)
/* Take a closure passed by pointer: copy it, clear the caller's copy
 * (so the generated wrapper does not free it).
 */
#define TAKE_CALLBACK(dst, src)                                         \
  do {                                                                  \
    (dst) = *(src);                                                     \
    (src)->callback = NULL;                                             \
    (src)->free = NULL;                                                 \
  } while (0)
#define CALL_CALLBACK(cb, ...) ((cb).callback ((cb).user_data, ##__VA_ARGS__))

/* ---- statistics (macros, nbd_stats_* in handle.c) ---- */

/* Statistics are written under the lock and read without it. */
#define STAT_ADD(h, field, n) \
  __atomic_fetch_add (&(h)->field, (n), __ATOMIC_RELAXED)
#define STAT_GET(h, field) __atomic_load_n (&(h)->field, __ATOMIC_RELAXED)

/* ---- utils.c: string vectors, byte ranges, wire encoding ---- */
extern int nbd_internal_string_vector_append (struct string_vector *v,
                                              char *s);
extern void nbd_internal_string_vector_free (struct string_vector *v);
extern int nbd_internal_copy_string_list (struct string_vector *v,
                                          char **in);
extern char *nbd_internal_printable_string (const char *s);
extern void nbd_internal_meta_vector_clear (struct meta_vector *v);
extern int nbd_internal_range_add (struct range_vector *v,
                                   uint64_t start, uint64_t end,
                                   uint64_t limit);
extern void nbd_internal_range_sort (struct range_vector *v);
extern uint64_t nbd_internal_range_covered (struct range_vector *v);
extern char *nbd_internal_put_u16 (char *p, uint16_t v);
extern char *nbd_internal_put_u32 (char *p, uint32_t v);
extern char *nbd_internal_put_string (char *p, const char *s);

/* ---- subprocess.c: fork and exec a server, async-signal-safely ---- */

/* A child to start: FD becomes each of TARGETS (-1 ends the list), the
 * other fds from 3 up are closed, and ARGV runs with ENVP (NULL: ours).
 * If LISTEN_PID is set, the child writes "LISTEN_PID=<its pid>" there
 * before exec (room for 32 bytes).
 */
struct child_spec {
  char **argv;
  char **envp;
  int fd;
  int targets[2];
  char *listen_pid;
};
extern pid_t nbd_internal_fork_exec (struct nbd_handle *h,
                                     const struct child_spec *spec);

/* ---- socket-activation.c: a server started the systemd way ---- */
extern int nbd_internal_socket_activation (struct nbd_handle *h);

/* ---- connect.c: the connect calls ---- */
extern void nbd_internal_close_socket (struct nbd_handle *h);
extern int nbd_internal_connect_fd_nonblocking (int fd);

/* ---- socket.c: the plain socket, buffered receive, gathered send ---- */
extern struct socket *nbd_internal_socket_create (int fd);
extern void nbd_internal_socket_set_options (struct nbd_handle *h,
                                             struct socket *sock, int family);
extern int nbd_internal_recv_into_rbuf (struct nbd_handle *h);
extern bool nbd_internal_ahead_empty (struct nbd_handle *h);
extern int nbd_internal_recv_handshake (struct nbd_handle *h);
extern int nbd_internal_send_handshake (struct nbd_handle *h);
extern bool nbd_internal_send_pending (struct nbd_handle *h);
extern void nbd_internal_gather_requests (struct nbd_handle *h);
extern int nbd_internal_send_gathered (struct nbd_handle *h);
extern void nbd_internal_gather_truncate (struct nbd_handle *h, size_t end);

/* ---- crypto.c: the TLS socket ---- */
extern int nbd_internal_tls_start (struct nbd_handle *h);
extern int nbd_internal_tls_handshake (struct nbd_handle *h);

/* ---- tls-priority.c: each TLS session's priority string ---- */
struct gnutls_session_int;      /* what gnutls_session_t points to */
/* 0, or -1 with the error set. */
extern int nbd_internal_tls_set_priority (struct nbd_handle *h,
                                          struct gnutls_session_int *session,
                                          bool psk);

/* ---- tls-groups.c: key exchange groups, the post-quantum ones ---- */
extern const char *nbd_internal_tls_pq_groups_known (void);
extern void nbd_internal_tls_debug_group (struct nbd_handle *h,
                                          struct gnutls_session_int *session);

/* ---- handshake.c: options sent, their replies decoded, export facts ---- */
extern int nbd_internal_opt_send (struct nbd_handle *h, uint32_t option,
                                  const void *payload, size_t len);
extern int nbd_internal_opt_write (struct nbd_handle *h);
extern void nbd_internal_opt_expect_reply (struct nbd_handle *h);
extern int nbd_internal_opt_recv_reply (struct nbd_handle *h);
extern int nbd_internal_opt_reply_errno (uint32_t reply);
extern void nbd_internal_set_opt_reply_error (struct nbd_handle *h,
                                              uint32_t reply);
extern int nbd_internal_opt_info_reply (struct nbd_handle *h);
extern int nbd_internal_opt_meta_context_reply (struct nbd_handle *h);
extern int nbd_internal_opt_server_reply (struct nbd_handle *h);
extern void nbd_internal_reset_size_and_flags (struct nbd_handle *h);
extern int nbd_internal_set_size_and_flags (struct nbd_handle *h,
                                            uint64_t exportsize,
                                            uint16_t eflags);
extern int nbd_internal_structured_reply_reply (struct nbd_handle *h,
                                                uint32_t reply);
extern int nbd_internal_extended_headers_reply (struct nbd_handle *h,
                                                uint32_t reply);

/* ---- opt.c: opt mode, the caller driving negotiation ---- */
extern void nbd_internal_opt_complete (struct nbd_handle *h, int err);
extern void nbd_internal_opt_complete_msg (struct nbd_handle *h, int err,
                                           uint32_t reply);
extern void nbd_internal_opt_abort (struct nbd_handle *h, int err);
extern void nbd_internal_opt_free (struct nbd_handle *h);

/* ---- flags.c: what the server said about the export ---- */
extern uint32_t nbd_internal_payload_maximum (struct nbd_handle *h);

/* ---- commands.c: the one owner of the command lists ---- */
extern int64_t nbd_internal_command_common (struct nbd_handle *h,
                                            uint16_t flags, uint16_t type,
                                            uint64_t offset, uint64_t count,
                                            int count_err, void *data,
                                            struct command_cb *cb);
extern int64_t nbd_internal_command_filtered (struct nbd_handle *h,
                                              uint16_t flags,
                                              uint64_t offset,
                                              uint64_t count, char *filter,
                                              uint32_t filter_len,
                                              struct command_cb *cb);
extern int64_t nbd_internal_command_read (struct nbd_handle *h,
                                          uint16_t flags, uint64_t offset,
                                          uint64_t count, void *data);
extern void nbd_internal_command_gathered (struct nbd_handle *h,
                                           struct command *cmd,
                                           size_t send_start,
                                           size_t send_end);
extern void nbd_internal_commands_sent (struct nbd_handle *h, size_t sent);
extern int nbd_internal_reply_command (struct nbd_handle *h,
                                       uint64_t cookie,
                                       struct command **cmd);
extern void nbd_internal_complete_command (struct nbd_handle *h,
                                           struct command *cmd);
extern void nbd_internal_abort_commands (struct nbd_handle *h);
extern int nbd_internal_wait_sync_commands (struct nbd_handle *h);
extern void nbd_internal_abandon_pending (struct nbd_handle *h);
extern void nbd_internal_free_all_commands (struct nbd_handle *h);
extern void nbd_internal_issue_sync (struct nbd_handle *h);
extern int nbd_internal_run_until_done (struct nbd_handle *h,
                                        int64_t cookie);

/* ---- reply.c: replies checked against their command or option ---- */
extern uint32_t nbd_internal_opt_reply_max (uint32_t reply);
extern bool nbd_internal_meta_context_recorded (struct nbd_handle *h,
                                                const char *name,
                                                uint32_t id);
extern int nbd_internal_errno_of_nbd_error (uint32_t error);
extern int nbd_internal_chunk_start (struct nbd_handle *h);
/* What a structured reply chunk holds: CHUNK_REPLY.START goes on to
 * read it accordingly.
 */
enum chunk_kind {
  CHUNK_DATA,                   /* OFFSET_DATA: its offset, then data */
  CHUNK_HOLE,                   /* OFFSET_HOLE: offset and length */
  CHUNK_PAYLOAD,                /* block status or error: to chunk_payload */
  CHUNK_SKIP,                   /* unusable: its bytes are skipped */
  CHUNK_DONE,                   /* no bytes follow */
};
extern enum chunk_kind nbd_internal_chunk_next (struct nbd_handle *h);
extern const char *nbd_internal_chunk_place_data (struct nbd_handle *h);
extern int nbd_internal_simple_read_place (struct nbd_handle *h);
extern void nbd_internal_read_data_arrived (struct nbd_handle *h,
                                            struct command *cmd,
                                            uint64_t offset,
                                            uint64_t count);
extern void nbd_internal_chunk_hole (struct nbd_handle *h);
extern void nbd_internal_chunk_block_status (struct nbd_handle *h);
extern void nbd_internal_chunk_block_status_ext (struct nbd_handle *h);
extern void nbd_internal_chunk_error (struct nbd_handle *h);

/* ---- states.c (generated): the state machine ---- */
extern int nbd_internal_run (struct nbd_handle *h, enum external_event ev);
extern void nbd_internal_go_dead (struct nbd_handle *h);
extern const char *nbd_internal_state_short_string (enum state state);
extern unsigned nbd_internal_state_direction (enum state state);
extern enum state nbd_internal_get_public_state (struct nbd_handle *h);

/* ---- waiters.c: several threads on one handle ---- */
struct pollfd;
extern int nbd_internal_wake_fd (struct nbd_handle *h);
extern int nbd_internal_poll_unlocked (struct nbd_handle *h,
                                       struct pollfd *fds, int nfds,
                                       int timeout, bool program);
extern void nbd_internal_wake_pollers (struct nbd_handle *h);
extern void nbd_internal_wake_waiters (struct nbd_handle *h);
extern void nbd_internal_wait_for_poller (struct nbd_handle *h);
extern void nbd_internal_sync_done_elsewhere (struct nbd_handle *h);
extern void nbd_internal_begin_exclusive (struct nbd_handle *h);
extern void nbd_internal_end_exclusive (struct nbd_handle *h);

/* ---- poll.c: driving the handle from an event loop ---- */
extern unsigned nbd_internal_direction (struct nbd_handle *h);
extern int nbd_internal_poll_for_command (struct nbd_handle *h);
extern int nbd_internal_flush_batch (struct nbd_handle *h);
extern void nbd_internal_command_queued (struct nbd_handle *h);

/* Store the state (and the direction it waits in) that lock-free calls
 * read.  Called by the run loop in states.c.
 */
static inline void
nbd_internal_set_public_state (struct nbd_handle *h, enum state s)
{
  __atomic_store_n (&h->public_dir, nbd_internal_direction (h),
                    __ATOMIC_RELEASE);
  __atomic_store_n (&h->public_state, s, __ATOMIC_RELEASE);
}

#endif /* LIBNBD_INTERNAL_H */
