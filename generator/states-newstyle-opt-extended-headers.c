/* states-newstyle-opt-extended-headers.c: NBD_OPT_EXTENDED_HEADERS. */

STATE_MACHINE {
 OPT_EXTENDED_HEADERS.START:
  /* Connect asks for them first: when the server agrees, they bring
   * structured replies with them.  Without structured replies wanted,
   * extended headers (which imply them) are not asked for either.
   */
  if (h->opt.option != NBD_OPT_EXTENDED_HEADERS &&
      (!h->request_eh || !h->request_sr)) {
    SET_NEXT_STATE (%.OPT_STRUCTURED_REPLY);
    return 0;
  }
  if (nbd_internal_opt_send (h, NBD_OPT_EXTENDED_HEADERS, NULL, 0) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_EXTENDED_HEADERS.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_EXTENDED_HEADERS.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_EXTENDED_HEADERS.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);
  int err = nbd_internal_extended_headers_reply (h, reply);

  if (err == -1)
    return -1;
  if (h->opt.option == NBD_OPT_EXTENDED_HEADERS) {
    nbd_internal_opt_complete (h, err);
    SET_NEXT_STATE (%.NEGOTIATING);
  }
  else
    SET_NEXT_STATE (%.OPT_STRUCTURED_REPLY);
  return 0;
} /* END STATE MACHINE */
