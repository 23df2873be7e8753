/* misbehave-opt-hangup.c: an option whose server hangs up half-way
 * still completes, once, with ENOTCONN, before its closures are freed.
 */
#include <config.h>

#include "misbehave-opt.h"

static bool
completed (const struct log *l)
{
  return strchr (l->ev, 'c') != NULL;
}

/* The server answers part of the option, then closes the connection.
 * Expected, as in libnbd 1.22: the handle dies, and dying runs the
 * completion with ENOTCONN, then frees the list or context closure,
 * then the completion's.  nbd_close has nothing left to do.
 */
static void
hang_up (const char *argv0, const struct opt_case *c)
{
  struct log l = { .err = -1 };
  const char *expect = c->has_fn ? "fcFC" : "cC";
  struct nbd_handle *h = connect_opt_script (argv0, c, "close");

  if (c->start (h, &l) == -1)
    FAIL ("%s: %s", c->name, nbd_get_error ());
  poll_until (h, c, completed, &l);
  if (!nbd_aio_is_dead (h))
    FAIL ("%s: the handle is not dead", c->name);
  CHECK (nbd_aio_is_connecting (h) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 0);
  check_log (c, &l, "after the hang-up", expect);
  nbd_close (h);
  check_log (c, &l, "after nbd_close", expect);
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
    hang_up (argv[0], &opt_cases[i]);
    printf ("%s: ok\n", opt_cases[i].name);
  }
  nbd_close (h);
  return EXIT_SUCCESS;
}
