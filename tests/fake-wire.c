/* fake-wire.c: big-endian reads and writes on stdin/stdout for the
 * test servers, with the replies gathered into few writes.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <endian.h>

#include "fake-wire.h"

static char outbuf[65536];
static size_t outlen;

void
wire_flush (void)
{
  const char *p = outbuf;
  ssize_t r;

  while (outlen > 0) {
    r = write (STDOUT_FILENO, p, outlen);
    if (r == -1 && errno == EINTR)
      continue;
    if (r <= 0)
      _exit (EXIT_SUCCESS);
    p += r;
    outlen -= r;
  }
}

/* Read exactly LEN bytes, after sending what was gathered. */
void
get (void *buf, size_t len)
{
  char *p = buf;
  ssize_t r;

  wire_flush ();
  while (len > 0) {
    r = read (STDIN_FILENO, p, len);
    if (r == -1 && errno == EINTR)
      continue;
    if (r <= 0)
      exit (EXIT_SUCCESS);
    p += r;
    len -= r;
  }
}

void
put (const void *buf, size_t len)
{
  static bool registered;
  const char *p = buf;
  size_t n;

  if (!registered) {
    atexit (wire_flush);
    registered = true;
  }
  while (len > 0) {
    if (outlen == sizeof outbuf)
      wire_flush ();
    n = sizeof outbuf - outlen < len ? sizeof outbuf - outlen : len;
    memcpy (outbuf + outlen, p, n);
    outlen += n;
    p += n;
    len -= n;
  }
}

void put16 (uint16_t v) { v = htobe16 (v); put (&v, sizeof v); }
void put32 (uint32_t v) { v = htobe32 (v); put (&v, sizeof v); }
void put64 (uint64_t v) { v = htobe64 (v); put (&v, sizeof v); }

uint16_t
get16 (void)
{
  uint16_t v;

  get (&v, sizeof v);
  return be16toh (v);
}

uint32_t
get32 (void)
{
  uint32_t v;

  get (&v, sizeof v);
  return be32toh (v);
}

uint64_t
get64 (void)
{
  uint64_t v;

  get (&v, sizeof v);
  return be64toh (v);
}

void
opt_reply (uint32_t option, uint32_t type, uint32_t len)
{
  put64 (OPT_REPLY_MAGIC);
  put32 (option);
  put32 (type);
  put32 (len);
}

void
simple_reply (uint64_t cookie, uint32_t error)
{
  put32 (SIMPLE_REPLY_MAGIC);
  put32 (error);
  put64 (cookie);
}

void
chunk_header (uint64_t cookie, uint16_t flags, uint16_t type, uint32_t len)
{
  put32 (STRUCTURED_REPLY_MAGIC);
  put16 (flags);
  put16 (type);
  put64 (cookie);
  put32 (len);
}

/* A big-endian 32 bit field at DATA + POS. */
static uint32_t
field32 (const char *data, uint32_t pos)
{
  uint32_t v;

  memcpy (&v, data + pos, 4);
  return be32toh (v);
}

int
meta_queries (uint32_t option, const char *data, uint32_t len,
              meta_query_fn fn, void *opaque)
{
  uint32_t nr, qlen, pos;

  if (len < 8 || field32 (data, 0) > len - 8)
    return -1;
  pos = 4 + field32 (data, 0);
  nr = field32 (data, pos);
  pos += 4;
  while (nr-- > 0) {
    if (len - pos < 4)
      return -1;
    qlen = field32 (data, pos);
    pos += 4;
    if (qlen > len - pos)
      return -1;
    fn (option, data + pos, qlen, opaque);
    pos += qlen;
  }
  return 0;
}
