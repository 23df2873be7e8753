/* misbehave-opt.h: each nbd_aio_opt_* call that takes callbacks, sent
 * to a fake-server that answers it in part, with a log of what its
 * closures saw.
 */
#ifndef MISBEHAVE_OPT_H
#define MISBEHAVE_OPT_H

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <libgen.h>
#include <time.h>

#include <libnbd.h>

#include "test-common.h"

/* The closures of one call, in the order things happened to them:
 * 'f' the list or context callback ran, 'c' the completion ran,
 * 'F' the list or context closure was freed, 'C' the completion was.
 */
struct log {
  char ev[64];
  int err;                      /* *error the completion was given */
};

static inline void
log_event (struct log *l, char e)
{
  size_t n = strlen (l->ev);

  if (n + 1 >= sizeof l->ev)
    FAIL ("too many callbacks: %s", l->ev);
  l->ev[n] = e;
}

static inline int
list_cb (void *user_data, const char *name, const char *description)
{
  log_event (user_data, 'f');
  return 0;
}

static inline int
context_cb (void *user_data, const char *name)
{
  log_event (user_data, 'f');
  return 0;
}

static inline int
completion_cb (void *user_data, int *error)
{
  struct log *l = user_data;

  log_event (l, 'c');
  l->err = *error;
  return 1;
}

static inline void
free_fn (void *user_data)
{
  log_event (user_data, 'F');
}

static inline void
free_completion (void *user_data)
{
  log_event (user_data, 'C');
}

#define LIST(l) \
  ((nbd_list_callback) { .callback = list_cb, .user_data = (l), \
                         .free = free_fn })
#define CONTEXT(l) \
  ((nbd_context_callback) { .callback = context_cb, .user_data = (l), \
                            .free = free_fn })
#define COMPLETION(l) \
  ((nbd_completion_callback) { .callback = completion_cb, \
                               .user_data = (l), .free = free_completion })

static char *queries[] = { (char *) LIBNBD_CONTEXT_BASE_ALLOCATION, NULL };

static inline int
start_go (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_go (h, COMPLETION (l));
}

static inline int
start_info (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_info (h, COMPLETION (l));
}

static inline int
start_list (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_list (h, LIST (l), COMPLETION (l));
}

static inline int
start_lmeta (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_list_meta_context (h, CONTEXT (l), COMPLETION (l));
}

static inline int
start_lmeta_queries (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_list_meta_context_queries (h, queries, CONTEXT (l),
                                                COMPLETION (l));
}

static inline int
start_meta (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_set_meta_context (h, CONTEXT (l), COMPLETION (l));
}

static inline int
start_meta_queries (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_set_meta_context_queries (h, queries, CONTEXT (l),
                                               COMPLETION (l));
}

static inline int
start_sr (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_structured_reply (h, COMPLETION (l));
}

static inline int
start_starttls (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_starttls (h, COMPLETION (l));
}

static inline int
start_eh (struct nbd_handle *h, struct log *l)
{
  return nbd_aio_opt_extended_headers (h, COMPLETION (l));
}

/* The first reply of each kind, whole: one export, one context, the
 * export's size and flags.  Options answered by one reply get only
 * half of its header.
 */
#define ONE_SERVER "u64:omagic u32:opt u32:2 u32:8 u32:4 str:disk"
#define ONE_CONTEXT "u64:omagic u32:opt u32:4 u32:19 u32:1 " \
  "str:base:allocation"
#define ONE_INFO "u64:omagic u32:opt u32:3 u32:12 u16:0 u64:1048576 u16:1"
#define HALF_HEADER "u64:omagic u32:opt"

struct opt_case {
  const char *name;
  int (*start) (struct nbd_handle *h, struct log *l);
  const char *target;           /* fake-server's name for the option */
  const char *reply;            /* what it sends before failing */
  bool has_fn;                  /* a list or context closure too */
};

static const struct opt_case opt_cases[] = {
  { "aio_opt_go", start_go, "go", ONE_INFO, false },
  { "aio_opt_info", start_info, "info", ONE_INFO, false },
  { "aio_opt_list", start_list, "list", ONE_SERVER, true },
  { "aio_opt_list_meta_context", start_lmeta, "lmeta", ONE_CONTEXT, true },
  { "aio_opt_list_meta_context_queries", start_lmeta_queries, "lmeta",
    ONE_CONTEXT, true },
  { "aio_opt_set_meta_context", start_meta, "meta", ONE_CONTEXT, true },
  { "aio_opt_set_meta_context_queries", start_meta_queries, "meta",
    ONE_CONTEXT, true },
  { "aio_opt_structured_reply", start_sr, "sr", HALF_HEADER, false },
  { "aio_opt_starttls", start_starttls, "tls", HALF_HEADER, false },
  { "aio_opt_extended_headers", start_eh, "eh", HALF_HEADER, false },
};

#define NR_OPT_CASES (sizeof opt_cases / sizeof opt_cases[0])

/* Connect in opt mode to "fake-server script TARGET 'REPLY THEN'".
 * The handshake asks for nothing by itself, so the first option of
 * each kind the server sees is the test's.
 */
static inline struct nbd_handle *
connect_opt_script (const char *argv0, const struct opt_case *c,
                    const char *then)
{
  static char path[4096], tokens[256];
  char *args[] = { path, "script", (char *) c->target, tokens, NULL };
  const char *dir = getenv ("builddir");
  char *copy = strdup (argv0);
  struct nbd_handle *h;

  CHECK (copy != NULL);
  snprintf (path, sizeof path, "%s/fake-server",
            dir && *dir ? dir : dirname (copy));
  free (copy);
  if (access (path, X_OK) != 0)
    FAIL ("%s is not built", path);
  snprintf (tokens, sizeof tokens, "%s %s", c->reply, then);
  h = nbd_create ();
  CHECK (h != NULL);
  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_set_request_structured_replies (h, false) == 0);
  CHECK (nbd_set_request_extended_headers (h, false) == 0);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  if (nbd_connect_command (h, args) == -1)
    FAIL ("%s: connecting to fake-server: %s", c->name, nbd_get_error ());
  CHECK (nbd_aio_is_negotiating (h) == 1);
  return h;
}

/* Poll H until DONE says so or the handle dies; bounded, so that a
 * library that waits for ever fails here instead of hanging.
 */
static inline void
poll_until (struct nbd_handle *h, const struct opt_case *c,
            bool (*done) (const struct log *), const struct log *l)
{
  time_t start = time (NULL);

  while (!done (l) && !nbd_aio_is_dead (h)) {
    if (time (NULL) - start > 5)
      FAIL ("%s: nothing happened in 5 seconds (log \"%s\")", c->name,
            l->ev);
    if (nbd_poll (h, 1000) == -1)
      break;
  }
}

/* The log must read EXPECT, and the completion have seen ENOTCONN. */
static inline void
check_log (const struct opt_case *c, const struct log *l,
           const char *when, const char *expect)
{
  if (strcmp (l->ev, expect) != 0)
    FAIL ("%s: %s: callbacks and frees went \"%s\", expected \"%s\" "
          "('f' list/context, 'c' completion, upper case: freed)",
          c->name, when, l->ev, expect);
  if (l->err != ENOTCONN)
    FAIL ("%s: %s: the completion saw error %d (%s), expected ENOTCONN",
          c->name, when, l->err, strerror (l->err));
}

#endif /* MISBEHAVE_OPT_H */
