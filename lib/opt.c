/* opt.c: opt mode, where the caller drives option negotiation. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/* The option under way, if any, has its closures freed, its
 * completion not run: how nbd_close leaves one (as in libnbd), and
 * the end of one that completed.
 */
void
nbd_internal_opt_free (struct nbd_handle *h)
{
  FREE_CALLBACK (h->opt.fn.list);   /* any member: same layout */
  FREE_CALLBACK (h->opt.completion);
  h->opt.option = 0;
}

/* An option finished (err = 0 on success): tell the caller's
 * completion callback, then free the closures.
 */
void
nbd_internal_opt_complete (struct nbd_handle *h, int err)
{
  int e = err;

  h->opt.error = err;
  if (h->opt.completion.callback)
    CALL_CALLBACK (h->opt.completion, &e);
  nbd_internal_opt_free (h);
}

/* As above, keeping the server's error reply for the message. */
void
nbd_internal_opt_complete_msg (struct nbd_handle *h, int err, uint32_t reply)
{
  h->opt.reply = reply;
  nbd_internal_opt_complete (h, err);
}

/* The option under way, if any, will get no reply: the handle died
 * with ERR (the state machine's errno) or closed.  Its completion
 * still runs once, before its closures are freed, as in libnbd: with
 * that errno, or ENOTCONN where there is none (a clean end of file, a
 * malformed reply).
 */
void
nbd_internal_opt_abort (struct nbd_handle *h, int err)
{
  if (h->opt.option == 0)
    return;
  if (err == 0)
    err = ENOTCONN;
  h->opt.reply = 0;
  nbd_internal_opt_complete (h, err);
}

/* Every option but EXPORT_NAME (sent by opt_go) and ABORT needs a
 * fixed newstyle server.
 */
static int
need_fixed_newstyle (struct nbd_handle *h)
{
  if (!(h->gflags & LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE)) {
    set_error (ENOTSUP, "server is not using fixed newstyle protocol");
    return -1;
  }
  return 0;
}

/* Start OPTION; the closures are taken. */
static int
opt_start (struct nbd_handle *h, uint32_t option,
           nbd_completion_callback *completion)
{
  h->opt.option = option;
  h->opt.error = 0;
  h->opt.reply = 0;
  h->opt_count = 0;
  if (completion)
    TAKE_CALLBACK (h->opt.completion, completion);
  /* The option is under way: a failure of the state machine is seen
   * by waiting for it.  Dying completed the option already; only an
   * event refused in this state leaves it to complete here.
   */
  if (nbd_internal_run (h, CmdIssue) == -1) {
    debug (h, "option queued, ignoring state machine failure");
    nbd_internal_opt_abort (h, nbd_get_errno ());
  }
  return 0;
}

/* The error of an option the server refused (h->opt.reply), in
 * libnbd's words: list and meta context requests say only that.
 */
static void
set_opt_refused_error (struct nbd_handle *h)
{
  switch (h->opt_current) {
  case NBD_OPT_LIST:
    set_error (h->opt.error, "server replied with error to list request");
    break;
  case NBD_OPT_LIST_META_CONTEXT:
  case NBD_OPT_SET_META_CONTEXT:
    set_error (h->opt.error,
               "server replied with error to meta context request");
    break;
  default:
    nbd_internal_set_opt_reply_error (h, h->opt.reply);
  }
}

/* Wait once for the option under way.  If waiting fails, the handle is
 * made dead, which completes the option now: its callbacks, which may
 * point into the caller's stack, never run after the call returns.
 */
static int
poll_option (struct nbd_handle *h)
{
  if (nbd_unlocked_poll (h, -1) == -1) {
    nbd_internal_go_dead (h);
    return -1;
  }
  return 0;
}

/* Wait for the option started by opt_start; -1 if it failed. */
static int
opt_wait (struct nbd_handle *h)
{
  while (nbd_internal_is_state_connecting (h->state)) {
    if (poll_option (h) == -1)
      return -1;
  }
  /* Dead: the state machine's own error is the one to report. */
  if (nbd_internal_is_state_dead (h->state))
    return -1;
  if (h->opt.error) {
    if (h->opt.reply)
      set_opt_refused_error (h);
    else
      set_error (h->opt.error, "option failed");
    return -1;
  }
  return 0;
}

int
nbd_unlocked_aio_opt_go (struct nbd_handle *h,
                         nbd_completion_callback *completion)
{
  return opt_start (h, NBD_OPT_GO, completion);
}

int
nbd_unlocked_aio_opt_info (struct nbd_handle *h,
                           nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  return opt_start (h, NBD_OPT_INFO, completion);
}

int
nbd_unlocked_aio_opt_abort (struct nbd_handle *h)
{
  return opt_start (h, NBD_OPT_ABORT, NULL);
}

int
nbd_unlocked_aio_opt_structured_reply (struct nbd_handle *h,
                                       nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  return opt_start (h, NBD_OPT_STRUCTURED_REPLY, completion);
}

int
nbd_unlocked_aio_opt_starttls (struct nbd_handle *h,
                               nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  return opt_start (h, NBD_OPT_STARTTLS, completion);
}

int
nbd_unlocked_aio_opt_extended_headers (struct nbd_handle *h,
                                       nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  return opt_start (h, NBD_OPT_EXTENDED_HEADERS, completion);
}

int
nbd_unlocked_aio_opt_list (struct nbd_handle *h, nbd_list_callback *list,
                           nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  TAKE_CALLBACK (h->opt.fn.list, list);
  return opt_start (h, NBD_OPT_LIST, completion);
}

/* The meta context options, with the default or explicit queries. */
static int
meta_start (struct nbd_handle *h, uint32_t option, char **queries,
            nbd_context_callback *context,
            nbd_completion_callback *completion)
{
  if (need_fixed_newstyle (h) == -1)
    return -1;
  h->opt_queries_set = queries != NULL;
  if (queries &&
      nbd_internal_copy_string_list (&h->opt_queries, queries) == -1) {
    set_error (errno, "strdup");
    return -1;
  }
  TAKE_CALLBACK (h->opt.fn.context, context);
  return opt_start (h, option, completion);
}

int
nbd_unlocked_aio_opt_list_meta_context (struct nbd_handle *h,
                                        nbd_context_callback *context,
                                        nbd_completion_callback *completion)
{
  return meta_start (h, NBD_OPT_LIST_META_CONTEXT, NULL, context,
                     completion);
}

int
nbd_unlocked_aio_opt_list_meta_context_queries
  (struct nbd_handle *h, char **queries, nbd_context_callback *context,
   nbd_completion_callback *completion)
{
  return meta_start (h, NBD_OPT_LIST_META_CONTEXT, queries, context,
                     completion);
}

int
nbd_unlocked_aio_opt_set_meta_context (struct nbd_handle *h,
                                       nbd_context_callback *context,
                                       nbd_completion_callback *completion)
{
  return meta_start (h, NBD_OPT_SET_META_CONTEXT, NULL, context,
                     completion);
}

int
nbd_unlocked_aio_opt_set_meta_context_queries
  (struct nbd_handle *h, char **queries, nbd_context_callback *context,
   nbd_completion_callback *completion)
{
  return meta_start (h, NBD_OPT_SET_META_CONTEXT, queries, context,
                     completion);
}

/* The synchronous forms: start, wait, report. */

int
nbd_unlocked_opt_go (struct nbd_handle *h)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (nbd_unlocked_aio_opt_go (h, &c) == -1 || opt_wait (h))
    return -1;
  return 0;
}

int
nbd_unlocked_opt_info (struct nbd_handle *h)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (nbd_unlocked_aio_opt_info (h, &c) == -1 || opt_wait (h))
    return -1;
  return 0;
}

/* Succeeds once the handle is closed, or dead (a server that is not
 * fixed newstyle cannot be told to abort).
 */
int
nbd_unlocked_opt_abort (struct nbd_handle *h)
{
  if (nbd_unlocked_aio_opt_abort (h) == -1)
    return -1;
  while (!nbd_internal_is_state_closed (h->state) &&
         !nbd_internal_is_state_dead (h->state))
    if (nbd_unlocked_poll (h, -1) == -1)
      return -1;
  return 0;
}

/* Wait for an option whose refusal is an answer, not an error: 1 if
 * the server agreed, 0 if it refused, -1 if the handle died.
 */
static int
opt_wait_answer (struct nbd_handle *h)
{
  while (nbd_internal_is_state_connecting (h->state))
    if (poll_option (h) == -1)
      return -1;
  if (nbd_internal_is_state_dead (h->state))
    return -1;
  return h->opt.error == 0;
}

/* True if the server agreed, as libnbd 1.22: the option is sent even
 * when structured replies (or extended headers) are already on.
 */
int
nbd_unlocked_opt_structured_reply (struct nbd_handle *h)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (nbd_unlocked_aio_opt_structured_reply (h, &c) == -1)
    return -1;
  return opt_wait_answer (h);
}

int
nbd_unlocked_opt_starttls (struct nbd_handle *h)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;
  bool before = h->tls_negotiated;

  if (nbd_unlocked_aio_opt_starttls (h, &c) == -1 ||
      opt_wait (h) == -1)
    return -1;
  /* True only if this request started TLS; a repeat is refused. */
  return !before && h->tls_negotiated;
}

/* True if the server agreed; a refusal is false, not an error. */
int
nbd_unlocked_opt_extended_headers (struct nbd_handle *h)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (nbd_unlocked_aio_opt_extended_headers (h, &c) == -1)
    return -1;
  return opt_wait_answer (h);
}

int
nbd_unlocked_opt_list (struct nbd_handle *h, nbd_list_callback *list)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (nbd_unlocked_aio_opt_list (h, list, &c) == -1 ||
      opt_wait (h) == -1)
    return -1;
  return h->opt_count;
}

static int
meta_sync (struct nbd_handle *h, uint32_t option, char **queries,
           nbd_context_callback *context)
{
  nbd_completion_callback c = NBD_NULL_COMPLETION;

  if (meta_start (h, option, queries, context, &c) == -1 ||
      opt_wait (h) == -1)
    return -1;
  return h->opt_count;
}

int
nbd_unlocked_opt_list_meta_context (struct nbd_handle *h,
                                    nbd_context_callback *context)
{
  return meta_sync (h, NBD_OPT_LIST_META_CONTEXT, NULL, context);
}

int
nbd_unlocked_opt_list_meta_context_queries (struct nbd_handle *h,
                                            char **queries,
                                            nbd_context_callback *context)
{
  return meta_sync (h, NBD_OPT_LIST_META_CONTEXT, queries, context);
}

int
nbd_unlocked_opt_set_meta_context (struct nbd_handle *h,
                                   nbd_context_callback *context)
{
  return meta_sync (h, NBD_OPT_SET_META_CONTEXT, NULL, context);
}

int
nbd_unlocked_opt_set_meta_context_queries (struct nbd_handle *h,
                                           char **queries,
                                           nbd_context_callback *context)
{
  return meta_sync (h, NBD_OPT_SET_META_CONTEXT, queries, context);
}
