/* nbd-protocol.h: NBD wire format constants and structs (doc/proto.md). */
#ifndef NBD_PROTOCOL_H
#define NBD_PROTOCOL_H

#include <stdint.h>

/* All integers on the wire are big-endian; the structs are packed so
 * they can be read and written as they stand.
 */
#define NBD_PACKED __attribute__ ((__packed__))

#define NBD_MAGIC        UINT64_C (0x4e42444d41474943) /* "NBDMAGIC" */
#define NBD_OLD_VERSION  UINT64_C (0x0000420281861253)
#define NBD_NEW_VERSION  UINT64_C (0x49484156454F5054) /* "IHAVEOPT" */
#define NBD_REP_MAGIC    UINT64_C (0x3e889045565a9)

/* Handshake flags (server) and client flags. */
#define NBD_FLAG_FIXED_NEWSTYLE  (1 << 0)
#define NBD_FLAG_NO_ZEROES       (1 << 1)
#define NBD_FLAG_C_FIXED_NEWSTYLE NBD_FLAG_FIXED_NEWSTYLE
#define NBD_FLAG_C_NO_ZEROES      NBD_FLAG_NO_ZEROES

/* Transmission (export) flags. */
#define NBD_FLAG_HAS_FLAGS         (1 << 0)
#define NBD_FLAG_READ_ONLY         (1 << 1)
#define NBD_FLAG_SEND_FLUSH        (1 << 2)
#define NBD_FLAG_SEND_FUA          (1 << 3)
#define NBD_FLAG_ROTATIONAL        (1 << 4)
#define NBD_FLAG_SEND_TRIM         (1 << 5)
#define NBD_FLAG_SEND_WRITE_ZEROES (1 << 6)
#define NBD_FLAG_SEND_DF           (1 << 7)
#define NBD_FLAG_CAN_MULTI_CONN    (1 << 8)
#define NBD_FLAG_SEND_RESIZE       (1 << 9)
#define NBD_FLAG_SEND_CACHE        (1 << 10)
#define NBD_FLAG_SEND_FAST_ZERO    (1 << 11)
#define NBD_FLAG_BLOCK_STAT_PAYLOAD (1 << 12)

/* Options. */
#define NBD_OPT_EXPORT_NAME       1
#define NBD_OPT_ABORT             2
#define NBD_OPT_LIST              3
#define NBD_OPT_STARTTLS          5
#define NBD_OPT_INFO              6
#define NBD_OPT_GO                7
#define NBD_OPT_STRUCTURED_REPLY  8
#define NBD_OPT_LIST_META_CONTEXT 9
#define NBD_OPT_SET_META_CONTEXT  10
#define NBD_OPT_EXTENDED_HEADERS  11

/* Option replies; errors have bit 31 set. */
#define NBD_REP_ERR(v) (UINT32_C (0x80000000) | (v))
#define NBD_REP_IS_ERR(v) (((v) & UINT32_C (0x80000000)) != 0)
#define NBD_REP_ACK          1
#define NBD_REP_SERVER       2
#define NBD_REP_INFO         3
#define NBD_REP_META_CONTEXT 4
#define NBD_REP_ERR_UNSUP        NBD_REP_ERR (1)
#define NBD_REP_ERR_POLICY       NBD_REP_ERR (2)
#define NBD_REP_ERR_INVALID      NBD_REP_ERR (3)
#define NBD_REP_ERR_PLATFORM     NBD_REP_ERR (4)
#define NBD_REP_ERR_TLS_REQD     NBD_REP_ERR (5)
#define NBD_REP_ERR_UNKNOWN      NBD_REP_ERR (6)
#define NBD_REP_ERR_SHUTDOWN     NBD_REP_ERR (7)
#define NBD_REP_ERR_BLOCK_SIZE_REQD NBD_REP_ERR (8)
#define NBD_REP_ERR_TOO_BIG      NBD_REP_ERR (9)
#define NBD_REP_ERR_EXT_HEADER_REQD NBD_REP_ERR (10)

/* Info types in NBD_OPT_INFO/GO. */
#define NBD_INFO_EXPORT      0
#define NBD_INFO_NAME        1
#define NBD_INFO_DESCRIPTION 2
#define NBD_INFO_BLOCK_SIZE  3

/* Commands. */
#define NBD_CMD_READ         0
#define NBD_CMD_WRITE        1
#define NBD_CMD_DISC         2
#define NBD_CMD_FLUSH        3
#define NBD_CMD_TRIM         4
#define NBD_CMD_CACHE        5
#define NBD_CMD_WRITE_ZEROES 6
#define NBD_CMD_BLOCK_STATUS 7

/* Command flags (the same bits as LIBNBD_CMD_FLAG_*). */
#define NBD_CMD_FLAG_FUA       (1 << 0)
#define NBD_CMD_FLAG_NO_HOLE   (1 << 1)
#define NBD_CMD_FLAG_DF        (1 << 2)
#define NBD_CMD_FLAG_REQ_ONE   (1 << 3)
#define NBD_CMD_FLAG_FAST_ZERO (1 << 4)
#define NBD_CMD_FLAG_PAYLOAD_LEN (1 << 5)

#define NBD_REQUEST_MAGIC          UINT32_C (0x25609513)
#define NBD_SIMPLE_REPLY_MAGIC     UINT32_C (0x67446698)
#define NBD_STRUCTURED_REPLY_MAGIC UINT32_C (0x668e33ef)
/* With NBD_OPT_EXTENDED_HEADERS: 32-byte requests and replies. */
#define NBD_EXTENDED_REQUEST_MAGIC UINT32_C (0x21e41c71)
#define NBD_EXTENDED_REPLY_MAGIC   UINT32_C (0x6e8a278c)

/* Structured reply chunk types and flags. */
#define NBD_REPLY_FLAG_DONE (1 << 0)
#define NBD_REPLY_TYPE_NONE         0
#define NBD_REPLY_TYPE_OFFSET_DATA  1
#define NBD_REPLY_TYPE_OFFSET_HOLE  2
#define NBD_REPLY_TYPE_BLOCK_STATUS 5
#define NBD_REPLY_TYPE_BLOCK_STATUS_EXT 6
#define NBD_REPLY_TYPE_ERROR_BIT    (1 << 15)
#define NBD_REPLY_TYPE_ERROR        (NBD_REPLY_TYPE_ERROR_BIT + 1)
#define NBD_REPLY_TYPE_ERROR_OFFSET (NBD_REPLY_TYPE_ERROR_BIT + 2)

/* Errors on the wire. */
#define NBD_SUCCESS    0
#define NBD_EPERM      1
#define NBD_EIO        5
#define NBD_ENOMEM    12
#define NBD_EINVAL    22
#define NBD_ENOSPC    28
#define NBD_EOVERFLOW 75
#define NBD_ENOTSUP   95
#define NBD_ESHUTDOWN 108

/* Largest name or string the protocol allows in options. */
#define NBD_MAX_STRING 4096

struct nbd_old_handshake {
  uint64_t nbdmagic;
  uint64_t version;             /* NBD_OLD_VERSION */
  uint64_t exportsize;
  uint16_t gflags;
  uint16_t eflags;
  char zeroes[124];
} NBD_PACKED;

struct nbd_new_option {
  uint64_t version;             /* NBD_NEW_VERSION */
  uint32_t option;
  uint32_t optlen;
} NBD_PACKED;

struct nbd_fixed_new_option_reply {
  uint64_t magic;               /* NBD_REP_MAGIC */
  uint32_t option;
  uint32_t reply;
  uint32_t replylen;
} NBD_PACKED;

/* Reply to NBD_OPT_EXPORT_NAME. */
struct nbd_new_handshake_finish {
  uint64_t exportsize;
  uint16_t eflags;
  char zeroes[124];
} NBD_PACKED;

struct nbd_request {
  uint32_t magic;               /* NBD_REQUEST_MAGIC */
  uint16_t flags;
  uint16_t type;
  uint64_t cookie;
  uint64_t offset;
  uint32_t count;
} NBD_PACKED;

/* The extended request: a 64-bit length. */
struct nbd_request_ext {
  uint32_t magic;               /* NBD_EXTENDED_REQUEST_MAGIC */
  uint16_t flags;
  uint16_t type;
  uint64_t cookie;
  uint64_t offset;
  uint64_t count;               /* payload length with PAYLOAD_LEN */
} NBD_PACKED;

struct nbd_simple_reply {
  uint32_t magic;               /* NBD_SIMPLE_REPLY_MAGIC */
  uint32_t error;
  uint64_t cookie;
} NBD_PACKED;

struct nbd_structured_reply {
  uint32_t magic;               /* NBD_STRUCTURED_REPLY_MAGIC */
  uint16_t flags;
  uint16_t type;
  uint64_t cookie;
  uint32_t length;              /* of the payload that follows */
} NBD_PACKED;

/* The extended reply chunk: the request's offset, a 64-bit length. */
struct nbd_extended_reply {
  uint32_t magic;               /* NBD_EXTENDED_REPLY_MAGIC */
  uint16_t flags;
  uint16_t type;
  uint64_t cookie;
  uint64_t offset;
  uint64_t length;              /* of the payload that follows */
} NBD_PACKED;

/* NBD_REPLY_TYPE_BLOCK_STATUS_EXT: id, count, then count of these. */
struct nbd_block_descriptor_64 {
  uint64_t length;
  uint64_t status_flags;
} NBD_PACKED;

struct nbd_block_descriptor_32 {
  uint32_t length;
  uint32_t status_flags;
} NBD_PACKED;

#endif /* NBD_PROTOCOL_H */
