/* states-newstyle-opt-meta-context.c: NBD_OPT_SET_META_CONTEXT and
 * NBD_OPT_LIST_META_CONTEXT, automatic before GO or from opt mode.
 */

/* Is this an nbd_opt_*_meta_context request (not the automatic one)? */
static bool
opt_meta_request (struct nbd_handle *h)
{
  return h->opt.option == NBD_OPT_LIST_META_CONTEXT ||
    h->opt.option == NBD_OPT_SET_META_CONTEXT;
}

/* Build the payload: export name, then the queries. */
static int
send_meta_context_option (struct nbd_handle *h, uint32_t option,
                          const struct string_vector *queries)
{
  size_t i, len = 4 + strlen (h->export_name) + 4;
  char *payload, *p;
  int r;

  for (i = 0; i < queries->len; ++i)
    len += 4 + strlen (queries->ptr[i]);
  payload = p = malloc (len);
  if (payload == NULL) {
    set_error (errno, "malloc");
    return -1;
  }
  p = nbd_internal_put_string (p, h->export_name);
  p = nbd_internal_put_u32 (p, queries->len);
  for (i = 0; i < queries->len; ++i)
    p = nbd_internal_put_string (p, queries->ptr[i]);
  r = nbd_internal_opt_send (h, option, payload, len);
  free (payload);
  return r;
}

STATE_MACHINE {
 OPT_META_CONTEXT.START:
  const struct string_vector *queries = &h->request_meta_contexts;
  uint32_t option = NBD_OPT_SET_META_CONTEXT;

  if (opt_meta_request (h)) {
    option = h->opt.option;
    if (h->opt_queries_set)
      queries = &h->opt_queries;
  }
  else if (!h->request_meta || !h->structured_replies ||
           queries->len == 0 || h->meta_valid) {
    SET_NEXT_STATE (%.OPT_GO);
    return 0;
  }
  if (option == NBD_OPT_SET_META_CONTEXT) {
    nbd_internal_meta_vector_clear (&h->meta_contexts);
    h->meta_valid = false;
  }
  if (send_meta_context_option (h, option, queries) == -1)
    return -1;
  h->opt_count = 0;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_META_CONTEXT.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_META_CONTEXT.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_META_CONTEXT.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);
  int err = 0;

  if (reply == NBD_REP_META_CONTEXT) {
    if (nbd_internal_opt_meta_context_reply (h) == -1)
      return -1;
    nbd_internal_opt_expect_reply (h);
    SET_NEXT_STATE (%RECV_REPLY);
    return 0;
  }
  if (reply == NBD_REP_ACK) {
    if (be32toh (h->opt_reply.option) == NBD_OPT_SET_META_CONTEXT)
      h->meta_valid = true;
  }
  else if (NBD_REP_IS_ERR (reply)) {
    debug (h, "server refused the meta context request: 0x%" PRIx32, reply);
    err = ENOTSUP;              /* whatever the error: as libnbd */
    /* Connecting goes on without contexts; an explicit request fails
     * and leaves none agreed.
     */
    if (!opt_meta_request (h))
      h->meta_valid = h->meta_contexts.len == 0;
  }
  else {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to a meta context option", reply);
    return -1;
  }
  if (opt_meta_request (h)) {
    nbd_internal_opt_complete_msg (h, err, err ? reply : 0);
    SET_NEXT_STATE (%.NEGOTIATING);
  }
  else
    SET_NEXT_STATE (%.OPT_GO);
  return 0;
} /* END STATE MACHINE */
