/* states-newstyle-opt-go.c: choosing the export with NBD_OPT_GO or
 * NBD_OPT_INFO, or with the old NBD_OPT_EXPORT_NAME.
 */

/* Payload of GO/INFO: the export name and the infos we want. */
static int
send_go_option (struct nbd_handle *h, uint32_t option)
{
  uint16_t infos[3];
  uint16_t nr = 0, i;
  size_t len;
  char buf[4 + NBD_MAX_STRING + 2 + sizeof infos], *p = buf;

  if (h->request_block_size)
    infos[nr++] = NBD_INFO_BLOCK_SIZE;
  if (h->full_info) {
    infos[nr++] = NBD_INFO_NAME;
    infos[nr++] = NBD_INFO_DESCRIPTION;
  }
  p = nbd_internal_put_string (p, h->export_name);
  p = nbd_internal_put_u16 (p, nr);
  for (i = 0; i < nr; ++i)
    p = nbd_internal_put_u16 (p, infos[i]);
  len = p - buf;
  return nbd_internal_opt_send (h, option, buf, len);
}

/* After GO or INFO succeeded or failed: where to go. */
static bool
opt_go_request (struct nbd_handle *h)
{
  return h->opt.option == NBD_OPT_GO || h->opt.option == NBD_OPT_INFO;
}

STATE_MACHINE {
 OPT_GO.START:
  uint32_t option = h->opt.option == NBD_OPT_INFO ? NBD_OPT_INFO
    : NBD_OPT_GO;

  if (strlen (h->export_name) > NBD_MAX_STRING) {
    set_error (ENAMETOOLONG, "export name too long for NBD protocol");
    return -1;
  }
  nbd_internal_reset_size_and_flags (h);
  if (send_go_option (h, option) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_GO.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_GO.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_GO.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);
  uint32_t option = be32toh (h->opt_reply.option);
  int err;

  if (reply == NBD_REP_INFO) {
    if (nbd_internal_opt_info_reply (h) == -1)
      return -1;
    nbd_internal_opt_expect_reply (h);
    SET_NEXT_STATE (%RECV_REPLY);
    return 0;
  }
  if (reply == NBD_REP_ACK) {
    if (!h->eflags_valid) {
      set_error (0, "handshake: server omitted NBD_INFO_EXPORT");
      return -1;
    }
    if (opt_go_request (h))
      nbd_internal_opt_complete (h, 0);
    SET_NEXT_STATE (option == NBD_OPT_GO ? %.READY : %.NEGOTIATING);
    return 0;
  }
  if (!NBD_REP_IS_ERR (reply)) {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to NBD_OPT_GO", reply);
    return -1;
  }
  /* Servers from before NBD_OPT_GO: fall back to EXPORT_NAME, in opt
   * mode too (opt_go then succeeds).
   */
  if (reply == NBD_REP_ERR_UNSUP && option == NBD_OPT_GO) {
    SET_NEXT_STATE (%.OPT_EXPORT_NAME);
    return 0;
  }
  nbd_internal_reset_size_and_flags (h);
  h->meta_valid = false;
  err = nbd_internal_opt_reply_errno (reply);
  if (opt_go_request (h)) {
    nbd_internal_opt_complete_msg (h, err, reply);
    SET_NEXT_STATE (%.NEGOTIATING);
    return 0;
  }
  /* Connecting: say goodbye first, as libnbd does, then die with the
   * server's refusal as the error.
   */
  nbd_internal_set_opt_reply_error (h, reply);
  h->dead_after_abort = true;
  SET_NEXT_STATE (%.OPT_ABORT);
  return 0;

 OPT_EXPORT_NAME.START:
  if (strlen (h->export_name) > NBD_MAX_STRING) {
    set_error (ENAMETOOLONG, "export name too long for NBD protocol");
    return -1;
  }
  if (nbd_internal_opt_send (h, NBD_OPT_EXPORT_NAME, h->export_name,
                             strlen (h->export_name)) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_EXPORT_NAME.SEND:
  switch (nbd_internal_send_handshake (h)) {
  case -1: return -1;
  case 0:
    /* Size and flags, then 124 zeroes unless NO_ZEROES was agreed. */
    h->rbuf = &h->sbuf.export_name_reply;
    h->rlen = sizeof h->sbuf.export_name_reply;
    if (h->cflags & LIBNBD_HANDSHAKE_FLAG_NO_ZEROES)
      h->rlen -= sizeof h->sbuf.export_name_reply.zeroes;
    SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_EXPORT_NAME.RECV_REPLY:
  switch (nbd_internal_recv_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_EXPORT_NAME.CHECK_REPLY:
  const struct nbd_new_handshake_finish *f = &h->sbuf.export_name_reply;

  if (nbd_internal_set_size_and_flags (h, be64toh (f->exportsize),
                                       be16toh (f->eflags)) == -1)
    return -1;
  if (opt_go_request (h))
    nbd_internal_opt_complete (h, 0);
  SET_NEXT_STATE (%.READY);
  return 0;
} /* END STATE MACHINE */
