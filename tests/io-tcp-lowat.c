/* io-tcp-lowat.c: over TCP the library raises the socket's receive
 * low-water mark (SO_RCVLOWAT) while a large read's data is still to
 * come, so that poll wakes it once much of it is there rather than at
 * every segment (lib/socket.c set_recv_lowat).  The mark must never
 * exceed what the server still owes, or poll would wait for bytes that
 * are not coming: fake-server, behind a TCP listener, sends a 1 MiB
 * read's data chunk in three parts, each on the test's cue.
 *
 * Checked: the mark rises to its cap while much is owed, stays within
 * what is owed while the second part arrives, lets the last part wake
 * the reader, is 1 once the read is in, and the read returns the
 * disk's bytes; small and large reads answered at once work after it,
 * and a small read with nothing else in flight does not wait for ever.
 */
#include <config.h>

#include "diff-common.h"        /* start_on_tcp, cues, diff_poll_until */
#include "misbehave-common.h"   /* is_pattern: fake-server's disk */

#define LEN DISK_SIZE           /* the whole of fake-server's disk */
#define CAP (256 * 1024)        /* RECV_LOWAT_MAX */
#define PART1 300000            /* first part of the data */
#define PART3 100000            /* the last part: over RECV_DIRECT_SIZE */

static unsigned char buf[LEN];

static int
lowat (struct nbd_handle *h)
{
  int v = -1;
  socklen_t len = sizeof v;

  CHECK (getsockopt (nbd_aio_get_fd (h), SOL_SOCKET, SO_RCVLOWAT, &v,
                     &len) == 0);
  return v;
}

static int
read_done (void *user_data, int *error)
{
  *(int *) user_data = *error;
  return 1;
}

/* Poll H until the mark is WANT, for at most 5 s; the read must still
 * be in flight (its error -1).
 */
static void
poll_until_lowat (struct nbd_handle *h, int want, const int *err)
{
  int i;

  for (i = 0; i < 50 && lowat (h) != want; ++i)
    CHECK (nbd_poll (h, 100) >= 0);
  if (lowat (h) != want)
    FAIL ("SO_RCVLOWAT is %d, not %d", lowat (h), want);
  if (*err != -1)
    FAIL ("the read ended (error %d) before the server sent all", *err);
}

/* Poll H for half a second: the read must still be in flight, with the
 * mark at most what is still owed, at most OWED.
 */
static void
poll_awhile (struct nbd_handle *h, int owed, const int *err)
{
  int i;

  for (i = 0; i < 5; ++i)
    CHECK (nbd_poll (h, 100) >= 0);
  if (*err != -1)
    FAIL ("the read ended (error %d) before the server sent all", *err);
  if (lowat (h) > owed || lowat (h) > CAP)
    FAIL ("SO_RCVLOWAT is %d with at most %d bytes owed", lowat (h), owed);
}

static bool
read_over (void *arg)
{
  return *(int *) arg != -1;
}

int
main (void)
{
  char tokens[256];
  char *args[] = { (char *) test_program ("fake-server"), (char *) "script",
                   (char *) "read", tokens, NULL };
  struct nbd_handle *h;
  static unsigned char small[512];
  struct cue cue;
  int err = -1, r;
  pid_t pid;

  /* One structured data chunk for the whole read: its header and
   * offset, then the disk's bytes in three parts, the last two cued.
   */
  snprintf (tokens, sizeof tokens,
            "u32:cmagic u16:1 u16:1 u64:cookie u32:count+8 u64:off "
            "data:off:%d wait data:off+%d:%d wait data:off+%d:%d",
            PART1, PART1, LEN - PART1 - PART3, LEN - PART3, PART3);
  unsetenv ("LIBNBD_NO_LOWAT");   /* the benchmarks' switch: not here */
  h = nbd_create ();
  CHECK (h != NULL);
  cue_init (&cue);
  alarm (20);                   /* a read waiting for ever ends the test */
  pid = start_on_tcp (h, args, &cue, &r);
  if (r == -1)
    FAIL ("connecting to fake-server over TCP: %s", nbd_get_error ());
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (lowat (h) == 1);

  CHECK (nbd_aio_pread (h, buf, LEN, 0,
                        (nbd_completion_callback) {
                          .callback = read_done, .user_data = &err }, 0) > 0);
  /* The first part is in: much more is owed, the mark is at its cap. */
  poll_until_lowat (h, CAP, &err);
  cue_send (&cue);
  /* The second part is coming: the mark may not wait for more than the
   * rest of the read, whose last 100000 bytes come only on the next
   * cue.  A mark left above what is owed would make poll wait for ever.
   */
  poll_awhile (h, LEN - PART1, &err);
  cue_send (&cue);
  diff_poll_until (h, read_over, &err);
  if (err != 0)
    FAIL ("the read failed: %s", strerror (err));
  if (!is_pattern (buf, LEN, 0))
    FAIL ("the read's buffer is not the disk's bytes");
  /* The tail came in one recv after a wait with the mark at most its
   * size: the mark is back at 1 for the next reply.
   */
  CHECK (lowat (h) == 1);

  /* Reads answered at once, and a small one alone in flight. */
  memset (buf, 0, LEN);
  CHECK (nbd_pread (h, buf, LEN, 0, 0) == 0);
  CHECK (is_pattern (buf, LEN, 0));
  CHECK (lowat (h) == 1);
  CHECK (nbd_pread (h, small, sizeof small, 4096, 0) == 0);
  CHECK (is_pattern (small, sizeof small, 4096));
  CHECK (nbd_pread (h, buf, 100 * 1024, 8192, 0) == 0);
  CHECK (is_pattern (buf, 100 * 1024, 8192));
  CHECK (nbd_pread (h, small, sizeof small, 0, 0) == 0);
  CHECK (is_pattern (small, sizeof small, 0));
  CHECK (lowat (h) == 1);
  alarm (0);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
  reap (pid);
  printf ("io-tcp-lowat: OK\n");
  return EXIT_SUCCESS;
}
