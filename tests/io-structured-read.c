/* io-structured-read.c: nbd_pread_structured chunks cover the request. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <fcntl.h>

#include <libnbd.h>

#include "test-common.h"

#define SIZE (1024 * 1024)

struct chunks {
  unsigned char *buf;           /* the read buffer */
  uint64_t req_offset;          /* offset of the request */
  size_t req_count;             /* its length */
  unsigned char *seen;          /* one flag per byte of the request */
  unsigned nr_data, nr_hole, nr_calls;
};

static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  struct chunks *c = user_data;
  const unsigned char *p = subbuf;
  size_t i, pos;

  c->nr_calls++;
  if (*error != 0)
    FAIL ("chunk callback called with *error = %d", *error);
  if (offset < c->req_offset || count > c->req_count ||
      offset - c->req_offset > c->req_count - count)
    FAIL ("chunk [%llu,+%zu) is outside the request [%llu,+%zu)",
          (unsigned long long) offset, count,
          (unsigned long long) c->req_offset, c->req_count);
  pos = offset - c->req_offset;
  if (p != c->buf + pos)
    FAIL ("chunk at %llu: subbuf does not point into the read buffer",
          (unsigned long long) offset);
  for (i = 0; i < count; ++i) {
    if (c->seen[pos + i])
      FAIL ("byte %llu is covered by two chunks",
            (unsigned long long) (offset + i));
    c->seen[pos + i] = 1;
  }

  switch (status) {
  case LIBNBD_READ_DATA:
    c->nr_data++;
    break;
  case LIBNBD_READ_HOLE:
    c->nr_hole++;
    for (i = 0; i < count; ++i)
      if (p[i] != 0)
        FAIL ("hole chunk at %llu has a non-zero byte",
              (unsigned long long) offset);
    break;
  default:
    FAIL ("unexpected chunk status %u", status);
  }
  return 0;
}

/* Read [offset, offset+count) both ways and compare. */
static void
check_read (struct nbd_handle *h, uint64_t offset, size_t count,
            struct chunks *c)
{
  unsigned char *plain;
  size_t i;

  c->buf = malloc (count);
  c->seen = calloc (1, count);
  plain = malloc (count);
  CHECK (c->buf != NULL && c->seen != NULL && plain != NULL);
  c->req_offset = offset;
  c->req_count = count;
  c->nr_data = c->nr_hole = c->nr_calls = 0;

  memset (c->buf, 0xaa, count);
  CHECK (nbd_pread_structured (h, c->buf, count, offset,
                               (nbd_chunk_callback) { .callback = chunk_cb,
                                                      .user_data = c },
                               0) == 0);
  CHECK (c->nr_calls >= 1);
  for (i = 0; i < count; ++i)
    if (!c->seen[i])
      FAIL ("byte %llu was not covered by any chunk",
            (unsigned long long) (offset + i));

  memset (plain, 0x55, count);
  CHECK (nbd_pread (h, plain, count, offset, 0) == 0);
  if (memcmp (plain, c->buf, count) != 0)
    FAIL ("structured and plain reads of [%llu,+%zu) differ",
          (unsigned long long) offset, count);

  free (c->buf);
  free (c->seen);
  free (plain);
}

static void
test_nbdkit (void)
{
  struct nbd_handle *h;
  struct chunks c;
  char *args[] = { "nbdkit", "-s", "--exit-with-parent", "data",
                   "@65536 ( 0x55 0x66 )*32768 @262144 1 2 3", "size=1M",
                   NULL };

  h = connect_command_or_fail (args);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);

  check_read (h, 0, SIZE, &c);
  check_read (h, 65535, 65538, &c);
  check_read (h, 262143, 5, &c);
  check_read (h, 300000, 1, &c);
  nbd_close (h);
}

/* qemu-nbd sends hole chunks for the unallocated parts of a file. */
static void
test_qemu (void)
{
  struct nbd_handle *h;
  struct chunks c;
  char tmpl[] = "/tmp/io-structured-readXXXXXX";
  char *args[] = { "qemu-nbd", "-f", "raw", "-r", tmpl, NULL };
  int fd;

  if (system ("command -v qemu-nbd >/dev/null 2>&1") != 0) {
    fprintf (stderr, "qemu-nbd not installed, skipping the hole test\n");
    return;
  }
  fd = mkstemp (tmpl);
  CHECK (fd >= 0);
  CHECK (ftruncate (fd, SIZE) == 0);
  CHECK (pwrite (fd, "hello", 5, 65536) == 5);
  CHECK (pwrite (fd, "world", 5, 512 * 1024) == 5);
  close (fd);

  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_systemd_socket_activation (h, args) == -1) {
    unlink (tmpl);
    FAIL ("connecting to qemu-nbd: %s", nbd_get_error ());
  }
  unlink (tmpl);

  check_read (h, 0, SIZE, &c);
  CHECK (c.nr_data >= 1);
  /* The file system may allocate whole blocks, but not the whole file. */
  CHECK (c.nr_hole >= 1);
  check_read (h, 65530, 20, &c);
  check_read (h, 100000, 300000, &c);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_nbdkit ();
  test_qemu ();
  exit (EXIT_SUCCESS);
}
