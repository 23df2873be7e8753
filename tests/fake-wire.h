/* fake-wire.h: the wire of the test servers (fake-server, ext-server,
 * tls-fake-server): NBD's numbers from the protocol document, and
 * big-endian reads and writes on stdin/stdout (fake-wire.c).
 */
#ifndef FAKE_WIRE_H
#define FAKE_WIRE_H

#include <stdint.h>
#include <stddef.h>

/* Magic numbers. */
#define EXT_REQUEST_MAGIC 0x21e41c71
#define REQUEST_MAGIC 0x25609513
#define STRUCTURED_REPLY_MAGIC 0x668e33ef
#define SIMPLE_REPLY_MAGIC 0x67446698
#define EXT_REPLY_MAGIC 0x6e8a278c
#define NBDMAGIC UINT64_C (0x4e42444d41474943)
#define IHAVEOPT UINT64_C (0x49484156454F5054)
#define OPT_REPLY_MAGIC UINT64_C (0x3e889045565a9)

/* Handshake flags. */
#define FLAG_FIXED_NEWSTYLE 1
#define FLAG_NO_ZEROES 2

/* Options. */
#define OPT_EXPORT_NAME 1
#define OPT_ABORT 2
#define OPT_LIST 3
#define OPT_STARTTLS 5
#define OPT_INFO 6
#define OPT_GO 7
#define OPT_STRUCTURED_REPLY 8
#define OPT_LIST_META_CONTEXT 9
#define OPT_SET_META_CONTEXT 10
#define OPT_EXTENDED_HEADERS 11

/* Option replies and the info type. */
#define INFO_EXPORT 0
#define REP_ACK 1
#define REP_SERVER 2
#define REP_INFO 3
#define REP_META_CONTEXT 4
#define REP_ERR_UNSUP 0x80000001
#define REP_ERR_POLICY 0x80000002
#define REP_ERR_INVALID 0x80000003
#define REP_ERR_EXT_HEADER_REQD 0x8000000a

/* Transmission flags of the export. */
#define TFLAG_HAS_FLAGS 1
#define TFLAG_SEND_FLUSH 4
#define TFLAG_SEND_FUA 8
#define TFLAG_SEND_TRIM 32
#define TFLAG_SEND_WRITE_ZEROES 64
#define TFLAG_SEND_DF 128
#define TFLAG_SEND_CACHE 1024

/* Commands and their flags. */
#define CMD_READ 0
#define CMD_WRITE 1
#define CMD_DISC 2
#define CMD_FLUSH 3
#define CMD_TRIM 4
#define CMD_CACHE 5
#define CMD_WRITE_ZEROES 6
#define CMD_BLOCK_STATUS 7
#define CMD_FLAG_REQ_ONE 8
#define CMD_FLAG_PAYLOAD_LEN 32

/* Reply chunks. */
#define REPLY_TYPE_NONE 0
#define REPLY_FLAG_DONE 1
#define REPLY_TYPE_OFFSET_DATA 1
#define REPLY_TYPE_OFFSET_HOLE 2
#define REPLY_TYPE_BLOCK_STATUS 5
#define REPLY_TYPE_BLOCK_STATUS_EXT 6
#define REPLY_TYPE_ERROR 0x8001
#define REPLY_TYPE_ERROR_OFFSET 0x8002

/* Errors on the wire. */
#define NBD_EIO 5
#define NBD_EINVAL 22

/* Replies are gathered and written when the buffer fills, before each
 * read from the client, and at exit (wire_flush is registered with
 * atexit the first time anything is put): a reply made of many small
 * fields leaves in few writes, as from a real server.  Reading or
 * writing exits quietly once the client has gone.
 */
extern void wire_flush (void);
extern void get (void *buf, size_t len);
extern void put (const void *buf, size_t len);
extern void put16 (uint16_t v);
extern void put32 (uint32_t v);
extern void put64 (uint64_t v);
extern uint16_t get16 (void);
extern uint32_t get32 (void);
extern uint64_t get64 (void);

/* The header of an option reply; LEN bytes of payload follow. */
extern void opt_reply (uint32_t option, uint32_t type, uint32_t len);

/* A simple reply to the command COOKIE: ERROR, 0 for success. */
extern void simple_reply (uint64_t cookie, uint32_t error);

/* The compact header of a structured reply chunk; LEN bytes of payload
 * follow.
 */
extern void chunk_header (uint64_t cookie, uint16_t flags, uint16_t type,
                          uint32_t len);

/* Walk the queries of an NBD_OPT_{LIST,SET}_META_CONTEXT request (DATA,
 * LEN bytes: export name, count, queries), calling FN with each in
 * turn.  Returns 0, or -1 as soon as the request turns out malformed
 * (FN may already have answered the queries before that point).
 */
typedef void (*meta_query_fn) (uint32_t option, const char *query,
                               uint32_t len, void *opaque);
extern int meta_queries (uint32_t option, const char *data, uint32_t len,
                         meta_query_fn fn, void *opaque);

#endif /* FAKE_WIRE_H */
