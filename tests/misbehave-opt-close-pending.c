/* misbehave-opt-close-pending.c: nbd_close with an option still
 * waiting for its reply frees the list or context closure, then the
 * completion's, without running the completion (as libnbd 1.22: a
 * callback run during teardown would touch what the program already
 * tore down).
 */
#include <config.h>

#include "misbehave-opt.h"

static bool
listed_one (const struct log *l)
{
  return strchr (l->ev, 'f') != NULL;
}

/* The server answers part of the option, then waits.  Expected: the
 * option is still under way, the list or context callback has seen the
 * one reply; nbd_close frees the closures in the order libnbd 1.22
 * does, and never calls the completion.
 */
static void
close_pending (const char *argv0, const struct opt_case *c)
{
  struct log l = { .err = -1 };
  const char *expect = c->has_fn ? "fFC" : "C";
  struct nbd_handle *h = connect_opt_script (argv0, c, "hold");

  if (c->start (h, &l) == -1)
    FAIL ("%s: %s", c->name, nbd_get_error ());
  if (c->has_fn)
    poll_until (h, c, listed_one, &l);
  CHECK (nbd_aio_is_connecting (h) == 1);
  if (strcmp (l.ev, c->has_fn ? "f" : "") != 0)
    FAIL ("%s: before nbd_close the log is already \"%s\"", c->name, l.ev);
  nbd_close (h);
  if (strcmp (l.ev, expect) != 0)
    FAIL ("%s: after nbd_close: callbacks and frees went \"%s\", expected "
          "\"%s\" ('f' list/context, 'c' completion, upper case: freed)",
          c->name, l.ev, expect);
  CHECK (l.err == -1);          /* the completion never ran */
}

int
main (int argc, char *argv[])
{
  size_t i;
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  for (i = 0; i < NR_OPT_CASES; ++i) {
    if (opt_cases[i].start == start_starttls && !nbd_supports_tls (h)) {
      printf ("%s: skipped: built without TLS\n", opt_cases[i].name);
      continue;
    }
    close_pending (argv[0], &opt_cases[i]);
    printf ("%s: ok\n", opt_cases[i].name);
  }
  nbd_close (h);
  return EXIT_SUCCESS;
}
