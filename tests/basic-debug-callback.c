/* basic-debug-callback.c: test debug messages reach the callback; free once. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include <libnbd.h>

#include "test-common.h"

struct counts {
  int calls;
  int frees;
  bool saw_context;             /* a message named the API call */
};

static int
debug_fn (void *user_data, const char *context, const char *msg)
{
  struct counts *c = user_data;

  if (c->frees != 0)
    FAIL ("debug callback called after its free");
  if (msg == NULL)
    FAIL ("debug callback given a NULL message");
  if (context != NULL && strcmp (context, "nbd_set_export_name") == 0)
    c->saw_context = true;
  c->calls++;
  return 0;
}

static void
free_fn (void *user_data)
{
  struct counts *c = user_data;

  c->frees++;
}

static nbd_debug_callback
make_cb (struct counts *c)
{
  return (nbd_debug_callback) { .callback = debug_fn, .user_data = c,
                                .free = free_fn };
}

int
main (void)
{
  struct nbd_handle *h;
  struct counts a = { 0 }, b = { 0 }, c = { 0 };
  int calls;

  h = nbd_create ();
  CHECK (h != NULL);

  /* With debug on, API calls log through the callback, with context. */
  CHECK (nbd_set_debug (h, true) == 0);
  CHECK (nbd_set_debug_callback (h, make_cb (&a)) == 0);
  CHECK (nbd_set_export_name (h, "debug-test") == 0);
  if (a.calls == 0)
    FAIL ("no debug messages with debug enabled");
  if (!a.saw_context)
    FAIL ("no debug message had context \"nbd_set_export_name\"");
  CHECK (a.frees == 0);

  /* With debug off, nothing. */
  CHECK (nbd_set_debug (h, false) == 0);
  calls = a.calls;
  CHECK (nbd_set_export_name (h, "quiet") == 0);
  CHECK (nbd_get_size (h) == -1);
  if (a.calls != calls)
    FAIL ("debug callback called %d times with debug off", a.calls - calls);

  /* Replacing the callback frees the old one, exactly once. */
  CHECK (nbd_set_debug (h, true) == 0);
  CHECK (nbd_set_debug_callback (h, make_cb (&b)) == 0);
  CHECK (a.frees == 1);
  calls = a.calls;
  CHECK (nbd_set_export_name (h, "b") == 0);
  CHECK (a.calls == calls);
  CHECK (b.calls > 0);

  /* Clearing frees it; clearing again frees nothing. */
  CHECK (nbd_clear_debug_callback (h) == 0);
  CHECK (b.frees == 1);
  CHECK (nbd_clear_debug_callback (h) == 0);
  CHECK (b.frees == 1);

  /* Closing the handle frees the current one. */
  CHECK (nbd_set_debug (h, false) == 0);
  CHECK (nbd_set_debug_callback (h, make_cb (&c)) == 0);
  CHECK (c.frees == 0);
  nbd_close (h);
  CHECK (c.frees == 1);
  CHECK (a.frees == 1 && b.frees == 1);

  exit (EXIT_SUCCESS);
}
