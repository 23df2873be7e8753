/* fake-script.c: fake-server's replies spelled out token by token. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <endian.h>
#include <unistd.h>
#include <errno.h>
#include <sys/socket.h>

#include "fake-server.h"

/* A script is a space-separated list of tokens:
 *
 *   u8:V u16:V u32:V u64:V   V as a big-endian number
 *   data:V:V                 the disk's bytes [first V, +second V)
 *   str:TEXT                 TEXT's bytes (no spaces)
 *   zero:V                   V zero bytes
 *   good                     the right answer to the command or option
 *   close                    exit at once: the connection closes
 *   hold                     send nothing more (until the client leaves)
 *   serve:V                  read the next V requests and answer them
 *                            right, then go on (transmission only)
 *   wait                     send what is gathered, then block until a
 *                            byte (or EOF) arrives on the descriptor
 *                            $FAKE_SERVER_WAIT_FD names: the test's cue
 *   tell                     send what is gathered, then write a byte to
 *                            the descriptor $FAKE_SERVER_TELL_FD names:
 *                            the test learns the server got this far
 *   reset                    exit with SO_LINGER 0: over TCP the client
 *                            sees a real connection reset
 *
 * V is a number (decimal or 0x hex) or one of cookie, off, count, end
 * (off + count), opt, smagic, cmagic (the simple and structured reply
 * magics), omagic (the option reply magic), followed by any number of
 * +N or -N.
 */

static uint64_t
base_value (const char *s, size_t len, const struct script_ctx *c)
{
#define IS(name) (len == strlen (name) && strncmp (s, name, len) == 0)
  if (IS ("cookie")) return c->cookie;
  if (IS ("off")) return c->offset;
  if (IS ("count")) return c->count;
  if (IS ("end")) return c->offset + c->count;
  if (IS ("opt")) return c->option;
  if (IS ("smagic")) return 0x67446698;
  if (IS ("cmagic")) return 0x668e33ef;
  if (IS ("omagic")) return UINT64_C (0x3e889045565a9);
#undef IS
  return strtoull (s, NULL, 0);
}

/* Parse V at *P, leaving *P after it. */
static uint64_t
value (const char **p, const struct script_ctx *c)
{
  const char *s = *p;
  size_t len = strcspn (s, "+-: ");
  uint64_t v = base_value (s, len, c);
  char *end;

  s += len;
  while (*s == '+' || *s == '-') {
    uint64_t n = strtoull (s + 1, &end, 0);
    v = *s == '+' ? v + n : v - n;
    s = end;
  }
  *p = s;
  return v;
}

static void
put_be (uint64_t v, int bytes)
{
  unsigned char b[8];
  int i;

  for (i = 0; i < bytes; ++i)
    b[i] = v >> (8 * (bytes - 1 - i));
  put (b, bytes);
}

/* Block until the test writes a byte to (or closes) its cue pipe. */
static void
wait_for_cue (void)
{
  const char *fd = getenv ("FAKE_SERVER_WAIT_FD");
  char b;

  wire_flush ();
  if (fd == NULL) {
    fprintf (stderr, "fake-server: wait: $FAKE_SERVER_WAIT_FD is not set\n");
    exit (EXIT_FAILURE);
  }
  while (read (atoi (fd), &b, 1) == -1 && errno == EINTR)
    ;
}

/* Let the test know the script got here. */
static void
tell_test (void)
{
  const char *fd = getenv ("FAKE_SERVER_TELL_FD");

  wire_flush ();
  if (fd == NULL || write (atoi (fd), "t", 1) != 1) {
    fprintf (stderr, "fake-server: tell: $FAKE_SERVER_TELL_FD is not "
             "set or not writable\n");
    exit (EXIT_FAILURE);
  }
}

/* Close with a reset rather than a FIN (TCP only; a Unix socket just
 * closes).
 */
static void
reset_connection (void)
{
  struct linger l = { .l_onoff = 1, .l_linger = 0 };

  wire_flush ();
  setsockopt (STDOUT_FILENO, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  _exit (EXIT_SUCCESS);
}

/* One token, at P (up to the next space). */
static void
play_token (const char *p, const struct script_ctx *c)
{
  static const char zeroes[4096];
  uint64_t a, b;

  if (strncmp (p, "u8:", 3) == 0) { p += 3; put_be (value (&p, c), 1); }
  else if (strncmp (p, "u16:", 4) == 0) { p += 4; put_be (value (&p, c), 2); }
  else if (strncmp (p, "u32:", 4) == 0) { p += 4; put_be (value (&p, c), 4); }
  else if (strncmp (p, "u64:", 4) == 0) { p += 4; put_be (value (&p, c), 8); }
  else if (strncmp (p, "data:", 5) == 0) {
    p += 5;
    a = value (&p, c);
    p++;
    b = value (&p, c);
    put (disk + a, b);
  }
  else if (strncmp (p, "zero:", 5) == 0) {
    p += 5;
    for (a = value (&p, c); a > 0; a -= b) {
      b = a < sizeof zeroes ? a : sizeof zeroes;
      put (zeroes, b);
    }
  }
  else if (strncmp (p, "str:", 4) == 0)
    put (p + 4, strcspn (p + 4, " "));
  else if (strncmp (p, "good", 4) == 0)
    c->good (c);
  else if (strncmp (p, "close", 5) == 0)
    exit (EXIT_SUCCESS);
  else if (strncmp (p, "hold", 4) == 0)
    drain ();
  else if (strncmp (p, "serve:", 6) == 0) {
    p += 6;
    for (a = value (&p, c); a > 0; --a)
      serve_request ();
  }
  else if (strncmp (p, "wait", 4) == 0)
    wait_for_cue ();
  else if (strncmp (p, "tell", 4) == 0)
    tell_test ();
  else if (strncmp (p, "reset", 5) == 0)
    reset_connection ();
  else {
    fprintf (stderr, "fake-server: unknown script token: %s\n", p);
    exit (EXIT_FAILURE);
  }
}

void
script_play (const char *tokens, const struct script_ctx *c)
{
  const char *p = tokens;

  while (*p) {
    p += strspn (p, " ");
    if (*p)
      play_token (p, c);
    p += strcspn (p, " ");
  }
}
