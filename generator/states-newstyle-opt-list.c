/* states-newstyle-opt-list.c: NBD_OPT_LIST, from nbd_opt_list. */

STATE_MACHINE {
 OPT_LIST.START:
  if (nbd_internal_opt_send (h, NBD_OPT_LIST, NULL, 0) == -1)
    return -1;
  h->opt_count = 0;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_LIST.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_LIST.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_LIST.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);

  if (reply == NBD_REP_SERVER) {
    if (nbd_internal_opt_server_reply (h) == -1)
      return -1;
    nbd_internal_opt_expect_reply (h);
    SET_NEXT_STATE (%RECV_REPLY);
    return 0;
  }
  if (reply == NBD_REP_ACK)
    nbd_internal_opt_complete (h, 0);
  else if (NBD_REP_IS_ERR (reply))
    nbd_internal_opt_complete_msg (h, ENOTSUP, reply);  /* as libnbd */
  else {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to NBD_OPT_LIST", reply);
    return -1;
  }
  SET_NEXT_STATE (%.NEGOTIATING);
  return 0;
} /* END STATE MACHINE */
