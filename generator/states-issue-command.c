/* states-issue-command.c: READY, and sending requests.  Queued requests
 * are gathered (headers and small payloads copied together) and leave
 * in one sendmsg; a large write payload follows from the caller's
 * buffer in the same call.
 */

/* Should READY start sending now?  With batching, a command queued
 * while others are in flight waits until the caller notifies a
 * writable socket, polls, or ends a notify-read (nbd_internal_flush_batch
 * sets force_send), so that the commands the caller queues in one go
 * leave together.
 */
static bool
should_issue (struct nbd_handle *h)
{
  if (nbd_internal_send_pending (h))
    return true;
  if (h->cmds_to_issue == NULL)
    return false;
  return !h->batching || h->cmds_in_flight == NULL || h->force_send;
}

STATE_MACHINE {
 READY.START:
  if (should_issue (h))
    SET_NEXT_STATE (%.ISSUE_COMMAND);
  return 0;

 ISSUE_COMMAND.START:
  if (nbd_internal_send_pending (h)) {
    SET_NEXT_STATE (%SEND);
    return 0;
  }
  if (h->cmds_to_issue == NULL) {
    SET_NEXT_STATE (%.READY);
    return 0;
  }
  nbd_internal_gather_requests (h);
  SET_NEXT_STATE (%SEND);
  return 0;

 ISSUE_COMMAND.SEND:
  switch (nbd_internal_send_gathered (h)) {
  case -1: return -1;
  case 0: SET_NEXT_STATE (%FINISH);
  }
  return 0;

 ISSUE_COMMAND.PAUSE_SEND:
  /* The server may be waiting for us to read replies before it reads
   * more of what we send: read them, then come back (READY resumes a
   * pending send first).
   */
  SET_NEXT_STATE (%.REPLY);
  return 0;

 ISSUE_COMMAND.FINISH:
  if (h->disconnect_request && h->cmds_to_issue == NULL)
    h->sock->ops->shut_writes (h->sock);
  if (h->cmds_to_issue)
    SET_NEXT_STATE (%START);
  else
    SET_NEXT_STATE (%.READY);
  return 0;
} /* END STATE MACHINE */
