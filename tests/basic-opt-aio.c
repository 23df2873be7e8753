/* basic-opt-aio.c: the asynchronous nbd_aio_opt_* calls, and the
 * structured-reply and query forms of the options, against nbdkit:
 * each completion runs once with the server's answer, each closure is
 * freed once, and the handle stays negotiating.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

#include "opt-callbacks.h"
#include "test-common.h"

static char *server[] = {
  "nbdkit", "-s", "--exit-with-parent", "--filter=exportname", "memory",
  "1M", "exportname=a", "exportname=b", "exportname-list=explicit", NULL
};

static struct nbd_handle *
connect_in_opt_mode (bool structured)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_set_request_structured_replies (h, structured) == 0);
  CHECK (nbd_connect_command (h, server) == 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  return h;
}

/* Run the handle until the option in progress is answered. */
static void
wait_option (struct nbd_handle *h)
{
  while (nbd_aio_is_connecting (h))
    CHECK (nbd_poll (h, -1) >= 0);
  CHECK (nbd_aio_is_negotiating (h) == 1);
}

static void
test_structured_reply (void)
{
  struct nbd_handle *h = connect_in_opt_mode (false);
  struct seen s = { 0 };

  CHECK (nbd_get_structured_replies_negotiated (h) == 0);
  CHECK (nbd_opt_structured_reply (h) == 1);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  nbd_close (h);

  h = connect_in_opt_mode (false);
  CHECK (nbd_aio_opt_structured_reply (h, COMPLETION (&s)) == 0);
  wait_option (h);
  CHECK (s.completions == 1 && s.error == 0 && s.frees == 1);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  nbd_close (h);
}

static void
test_list_and_info (void)
{
  struct nbd_handle *h = connect_in_opt_mode (true);
  struct seen l = { 0 }, c = { 0 }, i = { 0 };

  CHECK (nbd_aio_opt_list (h, LIST (&l), COMPLETION (&c)) == 0);
  wait_option (h);
  CHECK (l.names == 2 && l.frees == 1);
  CHECK (c.completions == 1 && c.error == 0 && c.frees == 1);

  CHECK (nbd_set_export_name (h, "b") == 0);
  CHECK (nbd_aio_opt_info (h, COMPLETION (&i)) == 0);
  wait_option (h);
  CHECK (i.completions == 1 && i.error == 0 && i.frees == 1);
  CHECK (nbd_get_size (h) == 1024 * 1024);

  CHECK (nbd_aio_opt_abort (h) == 0);
  while (!nbd_aio_is_closed (h))
    CHECK (nbd_poll (h, -1) >= 0);
  nbd_close (h);
}

/* The four meta context calls: list and set, plain and with queries. */
static void
test_meta_contexts (void)
{
  struct nbd_handle *h = connect_in_opt_mode (true);
  char *queries[] = { "base:", NULL };
  char *exact[] = { LIBNBD_CONTEXT_BASE_ALLOCATION, NULL };
  struct seen a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, done = { 0 };

  CHECK (nbd_set_export_name (h, "a") == 0);
  CHECK (nbd_opt_list_meta_context_queries (h, queries, CONTEXT (&a)) == 1);
  CHECK (a.contexts == 1 && a.base_allocation && a.frees == 1);

  CHECK (nbd_aio_opt_list_meta_context_queries (h, queries, CONTEXT (&b),
                                                COMPLETION (&done)) == 0);
  wait_option (h);
  CHECK (b.contexts == 1 && b.base_allocation && b.frees == 1);
  CHECK (done.completions == 1 && done.error == 0 && done.frees == 1);

  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  memset (&done, 0, sizeof done);
  CHECK (nbd_aio_opt_list_meta_context (h, CONTEXT (&c),
                                        COMPLETION (&done)) == 0);
  wait_option (h);
  CHECK (c.contexts == 1 && c.base_allocation && done.completions == 1);

  memset (&done, 0, sizeof done);
  CHECK (nbd_aio_opt_set_meta_context_queries (h, exact, CONTEXT (&d),
                                               COMPLETION (&done)) == 0);
  wait_option (h);
  CHECK (d.contexts == 1 && d.base_allocation && done.error == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);

  memset (&d, 0, sizeof d);
  memset (&done, 0, sizeof done);
  CHECK (nbd_aio_opt_set_meta_context (h, CONTEXT (&d),
                                       COMPLETION (&done)) == 0);
  wait_option (h);
  CHECK (d.contexts == 1 && done.completions == 1 && done.frees == 1);

  memset (&d, 0, sizeof d);
  CHECK (nbd_opt_set_meta_context_queries (h, exact, CONTEXT (&d)) == 1);
  CHECK (d.contexts == 1 && d.base_allocation);
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1);
  nbd_close (h);
}

int
main (void)
{
  requires_program ("nbdkit");
  test_structured_reply ();
  test_list_and_info ();
  test_meta_contexts ();
  exit (EXIT_SUCCESS);
}
