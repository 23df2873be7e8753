/* blkhash.c: the block hash of the copied image: H (H (block 0) || ...
 * || H (block n-1) || le64 (size)), blocks hashed by the workers in any
 * order, each digest stored at its block's index.
 */
#include <config.h>

#include <endian.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdcopy.h"

#ifdef HAVE_GNUTLS
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>

/* A block larger than a request arrives in pieces (several reads, or a
 * hole and reads).  Its digest is computed as the pieces come: those
 * in order go straight into the digest, a piece that comes early is
 * kept (copied) until the bytes before it came.  A worker takes whole
 * blocks of that size (work_range_size), so early pieces are at most
 * its reads in flight.  A piece already hashed (a range copied again
 * after a reconnect) is ignored.
 */
struct piece {
  uint64_t start, end;          /* within the block */
  char *data;                   /* NULL: zeroes */
  struct piece *next;           /* sorted by start */
};

struct big_block {
  gnutls_hash_hd_t hd;
  uint64_t hashed;              /* bytes of the block in hd so far */
  struct piece *early;
};

static gnutls_digest_algorithm_t algo;
static size_t dlen;                /* digest length in bytes */
static unsigned char *digests;     /* dlen bytes per block */
static size_t nr_blocks;           /* room in digests */
static unsigned char zero_digest[64]; /* of one full zero block */
static bool have_zero_digest;
static int64_t image_size = -1;    /* -1 until known */

/* Blocks larger than requests only. */
static struct big_block **big;     /* NULL: not started */
static bool *big_done;             /* digest stored */
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

bool
blkhash_digest_ok (const char *name)
{
  algo = (gnutls_digest_algorithm_t) gnutls_digest_get_id (name);
  if (algo == (gnutls_digest_algorithm_t) GNUTLS_DIG_UNKNOWN)
    return false;
  dlen = gnutls_hash_get_len (algo);
  return dlen > 0 && dlen <= sizeof zero_digest;
}

static void __attribute__ ((noreturn))
hash_failed (void)
{
  fprintf (stderr, "nbdcopy: --blkhash: gnutls_hash failed\n");
  exit (EXIT_FAILURE);
}

static void
hash (const void *buf, size_t len, unsigned char *out)
{
  if (gnutls_hash_fast (algo, buf, len, out) != 0)
    hash_failed ();
}

/* Feed LEN bytes (zeroes when BUF is NULL) into HD. */
static void
feed (gnutls_hash_hd_t hd, const char *buf, uint64_t len)
{
  size_t n;

  while (len > 0) {
    n = len < MAX_REQUEST_SIZE ? len : MAX_REQUEST_SIZE;
    if (gnutls_hash (hd, buf ? buf : zero_buffer (n), n) != 0)
      hash_failed ();
    if (buf)
      buf += n;
    len -= n;
  }
}

static bool
big_blocks (void)
{
  return opt.blkhash_block_size > MAX_REQUEST_SIZE;
}

static void *
grow (void *p, size_t n, size_t elem, size_t old)
{
  p = realloc (p, n * elem);
  if (p == NULL) {
    perror ("realloc");
    exit (EXIT_FAILURE);
  }
  memset ((char *) p + old * elem, 0, (n - old) * elem);
  return p;
}

/* Make room for blocks up to INDEX; only the single-threaded copy of a
 * source of unknown size grows the tables once workers run.
 */
static unsigned char *
digest_slot (size_t index)
{
  size_t n;

  if (index >= nr_blocks) {
    n = nr_blocks ? nr_blocks : 1024;
    while (n <= index)
      n *= 2;
    digests = grow (digests, n, dlen, nr_blocks);
    if (big_blocks ()) {
      big = grow (big, n, sizeof *big, nr_blocks);
      big_done = grow (big_done, n, sizeof *big_done, nr_blocks);
    }
    nr_blocks = n;
  }
  return digests + index * dlen;
}

/* The digest of a whole zero block, computed at the first need. */
static const unsigned char *
zero_block_digest (void)
{
  uint64_t bs = opt.blkhash_block_size;
  gnutls_hash_hd_t hd;

  if (!have_zero_digest) {
    if (gnutls_hash_init (&hd, algo) != 0)
      hash_failed ();
    feed (hd, NULL, bs);
    gnutls_hash_deinit (hd, zero_digest);
    have_zero_digest = true;
  }
  return zero_digest;
}

void
blkhash_init (int64_t size)
{
  uint64_t bs = opt.blkhash_block_size;

  image_size = size;
  if (size > 0)
    digest_slot ((size + bs - 1) / bs - 1);
  if (!big_blocks ())
    zero_block_digest ();
}

/* The length of block INDEX, or 0 while the image size is unknown. */
static uint64_t
block_length (size_t index)
{
  uint64_t bs = opt.blkhash_block_size, start = index * bs;

  if (image_size < 0)
    return 0;
  return (uint64_t) image_size - start < bs ? image_size - start : bs;
}

static void
big_finish (size_t index)
{
  struct big_block *b = big[index];

  gnutls_hash_deinit (b->hd, digest_slot (index));
  free (b);
  big[index] = NULL;
  big_done[index] = true;
}

/* Hash what is in order after b->hashed: early pieces now reached. */
static void
big_drain (struct big_block *b)
{
  struct piece *p;

  while ((p = b->early) != NULL && p->start <= b->hashed) {
    if (p->end > b->hashed) {
      feed (b->hd, p->data ? p->data + (b->hashed - p->start) : NULL,
            p->end - b->hashed);
      b->hashed = p->end;
    }
    b->early = p->next;
    free (p->data);
    free (p);
  }
}

static void
big_keep (struct big_block *b, uint64_t start, uint64_t end,
          const char *buf)
{
  struct piece *p = calloc (1, sizeof *p), **pp;

  if (p == NULL || (buf && (p->data = malloc (end - start)) == NULL)) {
    perror ("malloc");
    exit (EXIT_FAILURE);
  }
  p->start = start;
  p->end = end;
  if (buf)
    memcpy (p->data, buf, end - start);
  for (pp = &b->early; *pp && (*pp)->start < start; pp = &(*pp)->next)
    ;
  p->next = *pp;
  *pp = p;
}

/* Bytes [START, END) of block INDEX: BUF, or zeroes if NULL. */
static void
big_piece (size_t index, uint64_t start, uint64_t end, const char *buf)
{
  struct big_block *b;
  uint64_t len;

  pthread_mutex_lock (&big_lock);
  digest_slot (index);
  len = block_length (index);
  if (big_done[index])
    goto out;
  if (start == 0 && end == opt.blkhash_block_size && buf == NULL) {
    memcpy (digest_slot (index), zero_block_digest (), dlen);
    big_done[index] = true;
    goto out;
  }
  if ((b = big[index]) == NULL) {
    b = big[index] = calloc (1, sizeof *b);
    if (b == NULL || gnutls_hash_init (&b->hd, algo) != 0) {
      perror ("gnutls_hash_init");
      exit (EXIT_FAILURE);
    }
  }
  if (start > b->hashed)
    big_keep (b, start, end, buf);
  else if (end > b->hashed) {
    feed (b->hd, buf ? buf + (b->hashed - start) : NULL, end - b->hashed);
    b->hashed = end;
    big_drain (b);
  }
  /* The last block of a source of unknown size ends in big_check. */
  if (b->hashed == (len > 0 ? len : opt.blkhash_block_size))
    big_finish (index);
 out:
  pthread_mutex_unlock (&big_lock);
}

/* Split [OFFSET, OFFSET+LEN) at block boundaries. */
static void
big_range (uint64_t offset, const char *buf, uint64_t len)
{
  uint64_t bs = opt.blkhash_block_size, start, n;

  while (len > 0) {
    start = offset % bs;
    n = bs - start < len ? bs - start : len;
    big_piece (offset / bs, start, start + n, buf);
    offset += n;
    if (buf)
      buf += n;
    len -= n;
  }
}

/* LEN bytes read at OFFSET, a multiple of the block size (unless the
 * blocks are larger than requests); only the last block of the image
 * may be short.
 */
void
blkhash_data (uint64_t offset, const char *buf, size_t len)
{
  uint64_t bs = opt.blkhash_block_size;
  size_t pos, n;
  unsigned char *out;

  if (big_blocks ()) {
    big_range (offset, buf, len);
    return;
  }
  for (pos = 0; pos < len; pos += n) {
    n = len - pos < bs ? len - pos : bs;
    out = digest_slot ((offset + pos) / bs);
    if (n == bs && is_zero (buf + pos, n))
      memcpy (out, zero_digest, dlen);
    else
      hash (buf + pos, n, out);
  }
}

/* A hole: whole zero blocks, the last one short at the end of the
 * image.  Nothing is read or hashed but that short block.
 */
void
blkhash_zero (uint64_t offset, uint64_t len)
{
  uint64_t bs = opt.blkhash_block_size;
  uint64_t pos, n;

  if (big_blocks ()) {
    big_range (offset, NULL, len);
    return;
  }
  for (pos = 0; pos < len; pos += n) {
    n = len - pos < bs ? len - pos : bs;
    if (n == bs)
      memcpy (digest_slot ((offset + pos) / bs), zero_digest, dlen);
    else
      hash (zero_buffer (n), n, digest_slot ((offset + pos) / bs));
  }
}

/* Every block of large blocks is hashed by now; the last one of a
 * source of unknown size is finished here, now that its length is
 * known.
 */
static void
big_check (size_t n, uint64_t size)
{
  size_t i;

  image_size = size;
  for (i = 0; i < n; i++) {
    if (!big_done[i] && big[i] && big[i]->early == NULL &&
        big[i]->hashed == block_length (i))
      big_finish (i);
    if (!big_done[i]) {
      fprintf (stderr, "nbdcopy: --blkhash: block %zu was not hashed "
               "whole\n", i);
      exit (EXIT_FAILURE);
    }
  }
  free (big);
  free (big_done);
}

void
blkhash_finish (uint64_t size)
{
  uint64_t bs = opt.blkhash_block_size;
  size_t n = (size + bs - 1) / bs, i;
  uint64_t le = htole64 (size);
  unsigned char out[64];
  gnutls_hash_hd_t hd;
  FILE *fp = stdout;

  if (n > 0)
    digest_slot (n - 1);
  if (big_blocks ())
    big_check (n, size);
  if (gnutls_hash_init (&hd, algo) != 0 ||
      (n > 0 && gnutls_hash (hd, digests, n * dlen) != 0) ||
      gnutls_hash (hd, &le, sizeof le) != 0)
    hash_failed ();
  gnutls_hash_deinit (hd, out);
  if (opt.blkhash_file && (fp = fopen (opt.blkhash_file, "w")) == NULL) {
    perror (opt.blkhash_file);
    exit (EXIT_FAILURE);
  }
  for (i = 0; i < dlen; i++)
    fprintf (fp, "%02x", out[i]);
  fprintf (fp, "\n");
  if ((fp == stdout ? fflush (fp) : fclose (fp)) == EOF) {
    perror (opt.blkhash_file ? opt.blkhash_file : "stdout");
    exit (EXIT_FAILURE);
  }
  free (digests);
}

#else /* !HAVE_GNUTLS */

bool
blkhash_digest_ok (const char *name)
{
  fprintf (stderr, "nbdcopy: --blkhash: built without GnuTLS\n");
  exit (EXIT_FAILURE);
}

void blkhash_init (int64_t size) { }
void blkhash_data (uint64_t offset, const char *buf, size_t len) { }
void blkhash_zero (uint64_t offset, uint64_t len) { }
void blkhash_finish (uint64_t size) { }

#endif /* !HAVE_GNUTLS */
