/* states-newstyle.c: fixed newstyle greeting, structured replies,
 * and the NEGOTIATING pause of opt mode.
 */

/* Where the automatic handshake goes after structured replies. */
static bool
pause_for_opt_mode (struct nbd_handle *h)
{
  return h->opt_mode;
}

STATE_MACHINE {
 NEWSTYLE.START:
  h->rbuf = &h->sbuf.gflags;
  h->rlen = sizeof h->sbuf.gflags;
  SET_NEXT_STATE (%RECV_GFLAGS);
  return 0;

 NEWSTYLE.RECV_GFLAGS:
  switch (nbd_internal_recv_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_GFLAGS);
  }
  return 0;

 NEWSTYLE.CHECK_GFLAGS:
  uint32_t cflags;

  h->server_gflags = be16toh (h->sbuf.gflags);
  cflags = h->server_gflags & h->gflags;
  if (!(cflags & LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE) &&
      h->tls == LIBNBD_TLS_REQUIRE) {
    set_error (ENOTSUP, "handshake: server is not fixed newstyle, "
               "but TLS is required");
    return -1;
  }
  h->protocol = (cflags & LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE)
    ? PROTOCOL_NEWSTYLE_FIXED : PROTOCOL_NEWSTYLE;
  h->cflags = cflags;
  h->gflags = cflags;           /* nbd_get_handshake_flags: what was agreed */
  h->sbuf.cflags = htobe32 (cflags);
  h->wbuf = &h->sbuf.cflags;
  h->wlen = sizeof h->sbuf.cflags;
  h->wflags = 0;
  SET_NEXT_STATE (%SEND_CFLAGS);
  return 0;

 NEWSTYLE.SEND_CFLAGS:
  switch (nbd_internal_send_handshake (h)) {
  case -1: return -1;
  case 0:
    /* Plain newstyle servers only know NBD_OPT_EXPORT_NAME: in opt
     * mode it waits for nbd_opt_go.
     */
    if (h->protocol == PROTOCOL_NEWSTYLE)
      SET_NEXT_STATE (h->opt_mode ? %.NEGOTIATING : %.OPT_EXPORT_NAME);
    else
      SET_NEXT_STATE (%.OPT_STARTTLS);
  }
  return 0;

 OPT_STRUCTURED_REPLY.START:
  /* Extended headers, when agreed, brought structured replies. */
  if (h->opt.option != NBD_OPT_STRUCTURED_REPLY &&
      (!h->request_sr || h->extended_headers)) {
    SET_NEXT_STATE (pause_for_opt_mode (h) ? %.NEGOTIATING
                    : %.OPT_META_CONTEXT);
    return 0;
  }
  if (nbd_internal_opt_send (h, NBD_OPT_STRUCTURED_REPLY, NULL, 0) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_STRUCTURED_REPLY.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_STRUCTURED_REPLY.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_STRUCTURED_REPLY.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);
  int err = nbd_internal_structured_reply_reply (h, reply);

  if (err == -1)
    return -1;
  if (h->opt.option == NBD_OPT_STRUCTURED_REPLY) {
    nbd_internal_opt_complete (h, err);
    SET_NEXT_STATE (%.NEGOTIATING);
  }
  else
    SET_NEXT_STATE (pause_for_opt_mode (h) ? %.NEGOTIATING
                    : %.OPT_META_CONTEXT);
  return 0;

 NEGOTIATING.START:
  /* Wait for the next nbd_opt_* call. */
  return 0;

 OPT_ISSUE.START:
  if (h->protocol == PROTOCOL_NEWSTYLE && h->opt.option == NBD_OPT_GO) {
    SET_NEXT_STATE (%.OPT_EXPORT_NAME);
    return 0;
  }
  if (h->protocol == PROTOCOL_NEWSTYLE && h->opt.option == NBD_OPT_ABORT) {
    h->opt.option = 0;
    set_error (ENOTSUP, "handshake: server is not using fixed newstyle");
    return -1;
  }
  switch (h->opt.option) {
  case NBD_OPT_GO:
  case NBD_OPT_INFO:
  case NBD_OPT_LIST_META_CONTEXT:
  case NBD_OPT_SET_META_CONTEXT:
    SET_NEXT_STATE (%.OPT_META_CONTEXT);
    break;
  case NBD_OPT_LIST:
    SET_NEXT_STATE (%.OPT_LIST);
    break;
  case NBD_OPT_ABORT:
    SET_NEXT_STATE (%.OPT_ABORT);
    break;
  case NBD_OPT_STRUCTURED_REPLY:
    SET_NEXT_STATE (%.OPT_STRUCTURED_REPLY);
    break;
  case NBD_OPT_STARTTLS:
    SET_NEXT_STATE (%.OPT_STARTTLS);
    break;
  case NBD_OPT_EXTENDED_HEADERS:
    SET_NEXT_STATE (%.OPT_EXTENDED_HEADERS);
    break;
  default:
    set_error (EINVAL, "no option to send");
    SET_NEXT_STATE (%.NEGOTIATING);
  }
  return 0;

 OPT_ABORT.START:
  if (nbd_internal_opt_send (h, NBD_OPT_ABORT, NULL, 0) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_ABORT.SEND:
  switch (nbd_internal_send_handshake (h)) {
  case -1: return -1;
  case 0:
    /* The server may reply, but nothing more will be said. */
    nbd_internal_opt_complete (h, 0);
    h->sock->ops->shut_writes (h->sock);
    if (h->dead_after_abort)
      return -1;                /* the refusal's error is set */
    SET_NEXT_STATE (%.CLOSED);
  }
  return 0;
} /* END STATE MACHINE */
