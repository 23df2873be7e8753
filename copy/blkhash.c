/* blkhash.c: the block hash of the copied image: H (H (block 0) || ...
 * || H (block n-1) || le64 (size)), blocks hashed by the workers in any
 * order, each digest stored at its block's index.
 */
#include <config.h>

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdcopy.h"

#ifdef HAVE_GNUTLS
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>

static gnutls_digest_algorithm_t algo;
static size_t dlen;                /* digest length in bytes */
static unsigned char *digests;     /* dlen bytes per block */
static size_t nr_blocks;           /* room in digests */
static unsigned char zero_digest[64]; /* of one full zero block */

bool
blkhash_digest_ok (const char *name)
{
  algo = (gnutls_digest_algorithm_t) gnutls_digest_get_id (name);
  if (algo == (gnutls_digest_algorithm_t) GNUTLS_DIG_UNKNOWN)
    return false;
  dlen = gnutls_hash_get_len (algo);
  return dlen > 0 && dlen <= sizeof zero_digest;
}

static void
hash (const void *buf, size_t len, unsigned char *out)
{
  if (gnutls_hash_fast (algo, buf, len, out) != 0) {
    fprintf (stderr, "nbdcopy: --blkhash: gnutls_hash_fast failed\n");
    exit (EXIT_FAILURE);
  }
}

/* Make room for blocks up to INDEX; only the single-threaded copy of a
 * source of unknown size ever grows the table.
 */
static unsigned char *
digest_slot (size_t index)
{
  size_t n;

  if (index >= nr_blocks) {
    n = nr_blocks ? nr_blocks : 1024;
    while (n <= index)
      n *= 2;
    digests = realloc (digests, n * dlen);
    if (digests == NULL) {
      perror ("realloc");
      exit (EXIT_FAILURE);
    }
    nr_blocks = n;
  }
  return digests + index * dlen;
}

void
blkhash_init (int64_t size)
{
  uint64_t bs = opt.blkhash_block_size;

  if (size > 0)
    digest_slot ((size + bs - 1) / bs - 1);
  hash (zero_buffer (bs), bs, zero_digest);
}

/* LEN bytes read at OFFSET, a multiple of the block size; only the
 * last block of the image may be short.
 */
void
blkhash_data (uint64_t offset, const char *buf, size_t len)
{
  uint64_t bs = opt.blkhash_block_size;
  size_t pos, n;
  unsigned char *out;

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

  for (pos = 0; pos < len; pos += n) {
    n = len - pos < bs ? len - pos : bs;
    if (n == bs)
      memcpy (digest_slot ((offset + pos) / bs), zero_digest, dlen);
    else
      hash (zero_buffer (n), n, digest_slot ((offset + pos) / bs));
  }
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

  if (gnutls_hash_init (&hd, algo) != 0 ||
      (n > 0 && gnutls_hash (hd, digests, n * dlen) != 0) ||
      gnutls_hash (hd, &le, sizeof le) != 0) {
    fprintf (stderr, "nbdcopy: --blkhash: gnutls_hash failed\n");
    exit (EXIT_FAILURE);
  }
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
