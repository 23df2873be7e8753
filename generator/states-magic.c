/* states-magic.c: the server's greeting, and the oldstyle handshake. */

STATE_MACHINE {
 MAGIC.START:
  h->rbuf = &h->sbuf.magic;
  h->rlen = sizeof h->sbuf.magic;
  SET_NEXT_STATE (%RECV_MAGIC);
  return 0;

 MAGIC.RECV_MAGIC:
  switch (nbd_internal_recv_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK_MAGIC);
  }
  return 0;

 MAGIC.CHECK_MAGIC:
  uint64_t version = be64toh (h->sbuf.magic[1]);

  if (be64toh (h->sbuf.magic[0]) != NBD_MAGIC) {
    set_error (0, "handshake: server did not send the NBD magic");
    return -1;
  }
  if (version != NBD_NEW_VERSION && version != NBD_OLD_VERSION) {
    set_error (0, "handshake: unknown protocol version 0x%" PRIx64,
               version);
    return -1;
  }
  /* The greeting is the one chunk of the handshake that libnbd 1.22
   * counts as received (option replies are not). */
  STAT_ADD (h, chunks_received, 1);
  if (version == NBD_NEW_VERSION)
    SET_NEXT_STATE (%.NEWSTYLE);
  else
    SET_NEXT_STATE (%.OLDSTYLE);
  return 0;

 OLDSTYLE.START:
  /* The magic and version are already in the buffer. */
  h->rbuf = (char *) &h->sbuf.old_handshake + sizeof h->sbuf.magic;
  h->rlen = sizeof h->sbuf.old_handshake - sizeof h->sbuf.magic;
  SET_NEXT_STATE (%RECV_REMAINING);
  return 0;

 OLDSTYLE.RECV_REMAINING:
  switch (nbd_internal_recv_handshake (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%CHECK);
  }
  return 0;

 OLDSTYLE.CHECK:
  const struct nbd_old_handshake *old = &h->sbuf.old_handshake;

  h->protocol = PROTOCOL_OLDSTYLE;
  h->server_gflags = be16toh (old->gflags);
  if (h->tls == LIBNBD_TLS_REQUIRE) {
    set_error (ENOTSUP, "handshake: server is oldstyle, "
               "but TLS is required");
    return -1;
  }
  if (nbd_internal_set_size_and_flags (h, be64toh (old->exportsize),
                                       be16toh (old->eflags)) == -1)
    return -1;
  SET_NEXT_STATE (%.READY);
  return 0;
} /* END STATE MACHINE */
