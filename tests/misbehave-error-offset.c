/* misbehave-error-offset.c: ERROR_OFFSET reaches the chunk callback. */
/* The server answers a read with an NBD_REPLY_TYPE_ERROR_OFFSET chunk
 * (EIO, naming the byte 100 into the request).  Expected: the chunk
 * callback of nbd_pread_structured is called once with
 * LIBNBD_READ_ERROR, that offset, a pointer to that byte of the buffer,
 * a count of 0 and *error = EIO; the read fails with EIO; the handle
 * stays usable.
 */

#include <config.h>

#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

#include "misbehave-common.h"

#define COUNT 4096
#define OFFSET 8192

static unsigned char buf[COUNT];
static int calls;

static int
chunk_cb (void *user_data, const void *subbuf, size_t count,
          uint64_t offset, unsigned status, int *error)
{
  (void) user_data;
  calls++;
  CHECK (status == LIBNBD_READ_ERROR);
  CHECK (offset == OFFSET + 100);
  CHECK (subbuf == buf + 100);
  CHECK (count == 0);
  CHECK (*error == EIO);
  return 0;
}

int
main (int argc, char *argv[])
{
  static char path[4096];
  char *args[] = { path, "script", "read",
                   "u32:cmagic u16:1 u16:0x8002 u64:cookie u32:19 "
                   "u32:5 u16:5 str:oops! u64:off+100", NULL };
  struct nbd_handle *h;

  (void) argc;
  fake_server_path (argv[0], path, sizeof path);
  h = nbd_create ();
  CHECK (h != NULL);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to fake-server: %s", nbd_get_error ());
  CHECK (nbd_pread_structured (h, buf, COUNT, OFFSET,
           (nbd_chunk_callback) { .callback = chunk_cb }, 0) == -1);
  CHECK_ERROR (EIO, "nbd_pread_structured: ");
  CHECK (calls == 1);

  CHECK (nbd_aio_is_ready (h) == 1);
  CHECK (nbd_pread (h, buf, COUNT, OFFSET, 0) == 0);
  CHECK (is_pattern (buf, COUNT, OFFSET));
  nbd_close (h);
  exit (EXIT_SUCCESS);
}
