/* states-newstyle-opt-starttls.c: NBD_OPT_STARTTLS and the TLS handshake. */

/* What the server agreed or said in plaintext does not carry over
 * into TLS (the protocol says the server forgets it, and a man in the
 * middle could have written it), so neither do we: the export's size,
 * flags and names from an nbd_opt_info included.
 */
static void
forget_plaintext_options (struct nbd_handle *h)
{
  nbd_internal_reset_size_and_flags (h);
  h->structured_replies = false;
  h->extended_headers = false;
  h->meta_valid = false;
  nbd_internal_meta_vector_clear (&h->meta_contexts);
}

STATE_MACHINE {
 OPT_STARTTLS.START:
  if (h->opt.option != NBD_OPT_STARTTLS && h->tls == LIBNBD_TLS_DISABLE) {
    SET_NEXT_STATE (%.OPT_EXTENDED_HEADERS);
    return 0;
  }
  if (h->opt.option == NBD_OPT_STARTTLS && !nbd_unlocked_supports_tls (h)) {
    nbd_internal_opt_complete (h, ENOTSUP);  /* built without GnuTLS */
    SET_NEXT_STATE (%.NEGOTIATING);
    return 0;
  }
  if (nbd_internal_opt_send (h, NBD_OPT_STARTTLS, NULL, 0) == -1)
    return -1;
  SET_NEXT_STATE (%SEND);
  return 0;

 OPT_STARTTLS.SEND:
  switch (nbd_internal_opt_write (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%RECV_REPLY);
  }
  return 0;

 OPT_STARTTLS.RECV_REPLY:
  switch (nbd_internal_opt_recv_reply (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_REPLY);
  }
  return 0;

 OPT_STARTTLS.CHECK_REPLY:
  uint32_t reply = be32toh (h->opt_reply.reply);

  if (reply == NBD_REP_ACK && !h->tls_negotiated) {
    /* Anything after the ACK would be read as if it were encrypted:
     * a server (or a man in the middle) injecting plaintext.
     */
    if (be32toh (h->opt_reply.replylen) != 0 ||
        !nbd_internal_ahead_empty (h)) {
      set_error (EPROTO, "handshake: server sent data after accepting "
                 "NBD_OPT_STARTTLS");
      return -1;
    }
    if (nbd_internal_tls_start (h) == -1)
      return -1;
    SET_NEXT_STATE (%SEND_TLS_HANDSHAKE);
    return 0;
  }
  if (!NBD_REP_IS_ERR (reply)) {
    set_error (0, "handshake: unexpected reply 0x%" PRIx32
               " to NBD_OPT_STARTTLS", reply);
    return -1;
  }
  if (h->opt.option == NBD_OPT_STARTTLS) {
    nbd_internal_opt_complete (h, 0);      /* opt_starttls says false */
    SET_NEXT_STATE (%.NEGOTIATING);
    return 0;
  }
  if (h->tls == LIBNBD_TLS_REQUIRE) {
    set_error (ENOTSUP, "handshake: server refused TLS (reply 0x%" PRIx32
               "), but TLS is required", reply);
    return -1;
  }
  debug (h, "server refused TLS, continuing without it");
  SET_NEXT_STATE (%.OPT_EXTENDED_HEADERS);
  return 0;

 OPT_STARTTLS.RECV_TLS_HANDSHAKE:
  /* GnuTLS says which way it waits: 1 to read, 2 to write. */
  switch (nbd_internal_tls_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%FINISH); break;
  case 1: SET_NEXT_STATE_AND_BLOCK (%RECV_TLS_HANDSHAKE); break;
  default: SET_NEXT_STATE_AND_BLOCK (%SEND_TLS_HANDSHAKE);
  }
  return 0;

 OPT_STARTTLS.SEND_TLS_HANDSHAKE:
  /* GnuTLS says which way it waits: 1 to read, 2 to write. */
  switch (nbd_internal_tls_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%FINISH); break;
  case 1: SET_NEXT_STATE_AND_BLOCK (%RECV_TLS_HANDSHAKE); break;
  default: SET_NEXT_STATE_AND_BLOCK (%SEND_TLS_HANDSHAKE);
  }
  return 0;

 OPT_STARTTLS.FINISH:
  h->tls_negotiated = true;
  forget_plaintext_options (h);
  if (h->opt.option == NBD_OPT_STARTTLS) {
    nbd_internal_opt_complete (h, 0);
    SET_NEXT_STATE (%.NEGOTIATING);
  }
  else
    SET_NEXT_STATE (%.OPT_EXTENDED_HEADERS);
  return 0;
} /* END STATE MACHINE */
