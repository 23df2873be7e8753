/* states-reply.c: reading replies: the header, then a simple reply or
 * a structured chunk.  Every chunk is checked against its command;
 * a read succeeds only if its chunks covered each byte exactly once.
 */

/* Receive the rest of h->rbuf inside a reply.  Returns 0 when it is
 * all there, -1 on error (set), and 1 when the socket ran dry: the
 * reply is then parked (this state kept in h->reply_parked) and the
 * body goes to READY, so commands can still be issued; the next
 * NotifyRead resumes the parked state.
 */
static int
recv_reply_part (struct nbd_handle *h)
{
  switch (nbd_internal_recv_into_rbuf (h)) {
  case -1:
    return -1;
  case 2:                       /* as libnbd says it, with no errno */
    set_error (0, "recv: server disconnected unexpectedly");
    return -1;
  case 1:
    h->reply_parked = h->state;
    return 1;
  }
  return 0;
}

/* The reply's bytes cannot be used: skip them, fail the command. */
static void
discard_chunk (struct nbd_handle *h, uint64_t len, const char *why)
{
  debug (h, "discarding a reply chunk: %s", why);
  if (h->reply_cmd->error == 0)
    h->reply_cmd->error = EPROTO;
  h->rbuf = NULL;
  h->rlen = len;
}

/* The size of a reply header: all of it with extended headers (one
 * size for every reply), else the part simple and structured share.
 */
static size_t
reply_header_size (struct nbd_handle *h)
{
  return h->extended_headers ? sizeof h->sbuf.extended
    : sizeof h->sbuf.simple;
}

/* With extended headers, a header cut short whose magic is already
 * wrong will never be completed by a server that sent the shorter
 * simple or structured header: say so now rather than wait for ever.
 */
static bool
short_header_bad_magic (struct nbd_handle *h)
{
  size_t got = reply_header_size (h) - h->rlen;

  return h->extended_headers && got >= sizeof h->sbuf.simple.magic &&
    be32toh (h->sbuf.simple.magic) != NBD_EXTENDED_REPLY_MAGIC;
}

STATE_MACHINE {
 REPLY.START:
  if (h->reply_parked) {
    SET_NEXT_STATE (h->reply_parked);
    h->reply_parked = 0;
    return 0;
  }
  h->reply_cmd = NULL;
  h->rbuf = &h->sbuf.simple;
  h->rlen = reply_header_size (h);
  SET_NEXT_STATE (%RECV_REPLY);
  return 0;

 REPLY.RECV_REPLY:
  int r = nbd_internal_recv_into_rbuf (h);
  bool nothing_read = h->rlen == reply_header_size (h);

  switch (r) {
  case -1:
    return -1;
  case 2:
    /* The server closed at a reply boundary: the connection is over,
     * not broken (CLOSED, commands still out fail with ENOTCONN), as
     * in libnbd; inside a reply it is an error.
     */
    if (nothing_read) {
      SET_NEXT_STATE (%.CLOSED);
      return 0;
    }
    set_error (0, "recv: server disconnected unexpectedly");
    return -1;
  case 1:
    if (short_header_bad_magic (h)) {
      set_error (EPROTO, "invalid reply magic 0x%" PRIx32
                 " with extended headers", be32toh (h->sbuf.simple.magic));
      return -1;
    }
    if (!nothing_read)
      h->reply_parked = CURRENT_STATE;
    SET_NEXT_STATE (%.READY);
    return 0;
  }
  SET_NEXT_STATE (%CHECK_MAGIC);
  return 0;

 REPLY.CHECK_MAGIC:
  uint32_t magic = be32toh (h->sbuf.simple.magic);

  /* With extended headers every reply is an extended chunk, read
   * whole already; without, an extended chunk is as wrong as any
   * unknown magic.  Either way the stream is lost.
   */
  if (h->extended_headers) {
    if (magic != NBD_EXTENDED_REPLY_MAGIC) {
      set_error (EPROTO, "invalid reply magic 0x%" PRIx32
                 " with extended headers", magic);
      return -1;
    }
    SET_NEXT_STATE (%CHUNK_REPLY);
  }
  else if (magic == NBD_SIMPLE_REPLY_MAGIC)
    SET_NEXT_STATE (%SIMPLE_REPLY);
  else if (magic == NBD_STRUCTURED_REPLY_MAGIC && h->structured_replies) {
    h->rbuf = (char *) &h->sbuf.structured + sizeof h->sbuf.simple;
    h->rlen = sizeof h->sbuf.structured - sizeof h->sbuf.simple;
    SET_NEXT_STATE (%RECV_STRUCTURED_REST);
  }
  else {
    set_error (EPROTO, "invalid reply magic 0x%" PRIx32, magic);
    return -1;
  }
  return 0;

 REPLY.RECV_STRUCTURED_REST:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  SET_NEXT_STATE (%CHUNK_REPLY);
  return 0;

 REPLY.SIMPLE_REPLY.START:
  uint64_t cookie = be64toh (h->sbuf.simple.cookie);
  uint32_t error = be32toh (h->sbuf.simple.error);
  struct command *cmd;

  STAT_ADD (h, chunks_received, 1);
  if (nbd_internal_reply_command (h, cookie, &cmd) == -1)
    return -1;
  if (cmd == NULL) {
    /* No payload can follow an error, nor anything but a read's data
     * with structured replies: the stream is still in step.
     */
    if (error != 0 || h->structured_replies) {
      debug (h, "skipping a simple reply for the unknown cookie %" PRIu64,
             cookie);
      SET_NEXT_STATE (%^FINISH_COMMAND);
      return 0;
    }
    set_error (EPROTO, "no command matches the cookie %" PRIu64
               " of the server's reply", cookie);
    return -1;
  }
  h->reply_cmd = cmd;
  cmd->reply_done = true;
  if (cmd->seen.len > 0) {
    /* Chunks already arrived: a simple reply cannot follow them. */
    set_error (EPROTO, "simple reply after structured chunks");
    return -1;
  }
  if (error != 0) {
    cmd->error = nbd_internal_errno_of_nbd_error (error);
    SET_NEXT_STATE (%^FINISH_COMMAND);
  }
  else if (cmd->type == NBD_CMD_READ) {
    /* Forbidden with structured replies, but the data is there to
     * read: the read fails, the stream stays in step.
     */
    if (h->structured_replies) {
      debug (h, "simple reply with data to a read: failing it");
      cmd->error = EPROTO;
    }
    if (nbd_internal_simple_read_place (h) == -1)
      return -1;
    SET_NEXT_STATE (%RECV_READ_PAYLOAD);
  }
  else
    SET_NEXT_STATE (%^FINISH_COMMAND);
  return 0;

 REPLY.SIMPLE_REPLY.RECV_READ_PAYLOAD:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  nbd_internal_read_data_arrived (h, h->reply_cmd, 0, h->reply_cmd->count);
  SET_NEXT_STATE (%^FINISH_COMMAND);
  return 0;

 REPLY.CHUNK_REPLY.START:
  if (nbd_internal_chunk_start (h) == -1)
    return -1;
  switch (nbd_internal_chunk_next (h)) {
  case CHUNK_DATA: SET_NEXT_STATE (%RECV_OFFSET_DATA); break;
  case CHUNK_HOLE: SET_NEXT_STATE (%RECV_OFFSET_HOLE); break;
  case CHUNK_PAYLOAD: SET_NEXT_STATE (%RECV_PAYLOAD); break;
  case CHUNK_SKIP: SET_NEXT_STATE (%RECV_DISCARD); break;
  case CHUNK_DONE: SET_NEXT_STATE (%FINISH); break;
  }
  return 0;

 REPLY.CHUNK_REPLY.RECV_OFFSET_DATA:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  SET_NEXT_STATE (%CHECK_OFFSET_DATA);
  return 0;

 REPLY.CHUNK_REPLY.CHECK_OFFSET_DATA:
  const char *why;

  why = nbd_internal_chunk_place_data (h);
  if (why) {
    discard_chunk (h, h->chunk_length - sizeof h->chunk_head.offset, why);
    SET_NEXT_STATE (%RECV_DISCARD);
  }
  else
    SET_NEXT_STATE (%RECV_OFFSET_DATA_DATA);
  return 0;

 REPLY.CHUNK_REPLY.RECV_OFFSET_DATA_DATA:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  nbd_internal_read_data_arrived (h, h->reply_cmd, h->chunk_data_offset,
                                  h->chunk_data_count);
  SET_NEXT_STATE (%FINISH);
  return 0;

 REPLY.CHUNK_REPLY.RECV_OFFSET_HOLE:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  SET_NEXT_STATE (%CHECK_OFFSET_HOLE);
  return 0;

 REPLY.CHUNK_REPLY.CHECK_OFFSET_HOLE:
  nbd_internal_chunk_hole (h);
  SET_NEXT_STATE (%FINISH);
  return 0;

 REPLY.CHUNK_REPLY.RECV_PAYLOAD:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  if (h->chunk_type == NBD_REPLY_TYPE_BLOCK_STATUS ||
      h->chunk_type == NBD_REPLY_TYPE_BLOCK_STATUS_EXT)
    SET_NEXT_STATE (%CHECK_BLOCK_STATUS);
  else
    SET_NEXT_STATE (%CHECK_ERROR);
  return 0;

 REPLY.CHUNK_REPLY.CHECK_BLOCK_STATUS:
  if (h->chunk_type == NBD_REPLY_TYPE_BLOCK_STATUS_EXT)
    nbd_internal_chunk_block_status_ext (h);
  else
    nbd_internal_chunk_block_status (h);
  SET_NEXT_STATE (%FINISH);
  return 0;

 REPLY.CHUNK_REPLY.CHECK_ERROR:
  nbd_internal_chunk_error (h);
  SET_NEXT_STATE (%FINISH);
  return 0;

 REPLY.CHUNK_REPLY.RECV_DISCARD:
  switch (recv_reply_part (h)) {
  case -1: return -1;
  case 1: SET_NEXT_STATE (%.READY); return 0;   /* parked */
  }
  SET_NEXT_STATE (%FINISH);
  return 0;

 REPLY.CHUNK_REPLY.FINISH:
  free (h->chunk_payload);
  h->chunk_payload = NULL;
  if (h->reply_cmd && (h->chunk_flags & NBD_REPLY_FLAG_DONE))
    h->reply_cmd->reply_done = true;
  SET_NEXT_STATE (%^FINISH_COMMAND);
  return 0;

 REPLY.FINISH_COMMAND:
  struct command *cmd = h->reply_cmd;

  h->reply_cmd = NULL;
  if (cmd && cmd->reply_done) {
    /* Success without extents tells the caller nothing. */
    if (cmd->type == NBD_CMD_BLOCK_STATUS && !cmd->extents_seen &&
        cmd->error == 0) {
      debug (h, "block status succeeded without any extents");
      cmd->error = EPROTO;
    }
    nbd_internal_complete_command (h, cmd);
  }
  /* More replies already buffered: no need to wait for the socket. */
  if (!nbd_internal_ahead_empty (h))
    SET_NEXT_STATE (%START);
  else
    SET_NEXT_STATE (%.READY);
  return 0;

 DEAD.START:
  nbd_internal_opt_abort (h, nbd_get_errno ());
  nbd_internal_abort_commands (h);
  nbd_internal_close_socket (h);
  return -1;

 CLOSED.START:
  nbd_internal_opt_abort (h, ENOTCONN);
  nbd_internal_abort_commands (h);
  nbd_internal_close_socket (h);
  return 0;
} /* END STATE MACHINE */
