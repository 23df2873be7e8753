/* socket.c: the plain socket, and the buffered receive and gathered
 * send paths the state machine uses on top of any socket.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <assert.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "internal.h"

static ssize_t
plain_recv (struct socket *sock, void *buf, size_t len)
{
  return recv (sock->fd, buf, len, 0);
}

static ssize_t
plain_sendv (struct socket *sock, const struct iovec *iov, int n, int flags)
{
  struct msghdr msg = { .msg_iov = (struct iovec *) iov, .msg_iovlen = n };

  return sendmsg (sock->fd, &msg, flags | MSG_NOSIGNAL);
}

static bool
plain_pending (struct socket *sock)
{
  return false;
}

static int
plain_get_fd (struct socket *sock)
{
  return sock->fd;
}

static int
plain_shut_writes (struct socket *sock)
{
  /* A socketpair or a socket: either way the peer sees EOF. */
  if (shutdown (sock->fd, SHUT_WR) == -1 && errno != ENOTCONN)
    return -1;
  return 0;
}

static int
plain_close (struct socket *sock)
{
  int r = close (sock->fd);

  free (sock);
  return r;
}

static const struct socket_ops plain_ops = {
  .recv = plain_recv, .sendv = plain_sendv, .pending = plain_pending,
  .get_fd = plain_get_fd, .shut_writes = plain_shut_writes,
  .close = plain_close,
};

/* Options on a socket the library connects itself, as libnbd sets
 * them (sockets the program passes in, or socketpairs to a
 * subprocess, are left as they are).  A refusal is no error: the
 * defaults still work.
 *
 * Unix: a 2 MiB send buffer, as 1.24 sets.  Linux's default (212992
 * bytes) holds a fifth of a 1 MiB write, so a pipeline of large writes
 * stalls on every one (bench/README.md, "Unix socket send buffer").
 *
 * TCP: no Nagle, as every libnbd sets.  A request sent while an earlier
 * one is not yet acknowledged would otherwise wait for the ACK, which
 * delayed acknowledgement can hold back for up to 40 ms.  And the
 * receive low-water mark is ours to move (set_recv_lowat).
 */
void
nbd_internal_socket_set_options (struct nbd_handle *h, struct socket *sock,
                                 int family)
{
  int size = 2 * 1024 * 1024, on = 1, fd = sock->fd;

  switch (family) {
  case AF_UNIX:
    if (setsockopt (fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size) == -1)
      debug (h, "setsockopt: SO_SNDBUF: %m");
    break;
  case AF_INET:
  case AF_INET6:
    if (setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == -1)
      debug (h, "setsockopt: TCP_NODELAY: %m");
    sock->lowat = h->move_lowat;
    break;
  }
}

/* Wrap a connected (or connecting) non-blocking fd.  The fd is not
 * closed on failure.
 */
struct socket *
nbd_internal_socket_create (int fd)
{
  struct socket *sock = malloc (sizeof *sock);

  if (sock == NULL)
    return NULL;
  sock->ops = &plain_ops;
  sock->fd = fd;
  sock->why = NULL;
  sock->lowat = 0;
  return sock;
}

/* A failed recv or send, with the TLS layer's reason when it has one. */
static void
io_error (struct nbd_handle *h, const char *op)
{
  const char *why = h->sock->why;

  set_error (errno, "%s%s%s", op, why ? ": " : "", why ? why : "");
}

bool
nbd_internal_ahead_empty (struct nbd_handle *h)
{
  return h->ahead_start == h->ahead_end &&
    !(h->sock && h->sock->ops->pending (h->sock));
}

/* Take up to h->rlen bytes from the read-ahead buffer. */
static void
take_ahead (struct nbd_handle *h)
{
  size_t n = h->ahead_end - h->ahead_start;

  if (n > h->rlen)
    n = h->rlen;
  if (h->rbuf) {
    memcpy (h->rbuf, h->ahead + h->ahead_start, n);
    h->rbuf = (char *) h->rbuf + n;
  }
  h->ahead_start += n;
  h->rlen -= n;
  if (h->ahead_start == h->ahead_end)
    h->ahead_start = h->ahead_end = 0;
}

/* Does what is left of h->rbuf land directly in it, past the read-ahead? */
static bool
recv_direct (const struct nbd_handle *h)
{
  return h->rbuf != NULL && h->rlen >= RECV_DIRECT_SIZE;
}

/* Over plain TCP, a large payload arrives segment by segment, and poll
 * would wake the reader for each: most of a 1 MiB read's CPU went to
 * waking, polling and recv (bench/README.md, "TCP receive low-water
 * mark").  So before each wait for more of a payload of
 * RECV_DIRECT_SIZE or more, SO_RCVLOWAT asks poll to report the socket
 * readable only once min (what is still to come, RECV_LOWAT_MAX) bytes
 * are there, and the mark is back at 1 as soon as the payload is in.
 * It never exceeds what the server still owes: those bytes come before
 * anything else on the stream.  An end of file or an error wakes poll
 * whatever the mark.  Unix sockets ignore the mark in poll, and TLS
 * records do not map to it, so only plain TCP sockets the library
 * connected itself have it moved (sock->lowat != 0).
 */
static void
set_recv_lowat (struct nbd_handle *h, size_t want)
{
  struct socket *sock = h->sock;
  int v = want > RECV_LOWAT_MAX ? RECV_LOWAT_MAX : want > 1 ? (int) want : 1;

  if (sock->lowat == 0 || v == sock->lowat)
    return;
  if (setsockopt (sock->fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof v) == -1) {
    debug (h, "setsockopt: SO_RCVLOWAT: %m");
    v = 0;                      /* leave it alone from now on */
  }
  sock->lowat = v;
}

/* Before a wait for more of h->rbuf: the mark for what is to come. */
static int
recv_would_block (struct nbd_handle *h)
{
  set_recv_lowat (h, recv_direct (h) ? h->rlen : 1);
  return 1;
}

/* Fill h->rbuf (or skip h->rlen bytes when rbuf is NULL).  Small reads
 * go through the read-ahead buffer, so one recv brings in many
 * replies; large ones land directly in their buffer.
 * Returns 0 done, 1 would block, 2 end of file, -1 error (set).
 */
int
nbd_internal_recv_into_rbuf (struct nbd_handle *h)
{
  while (h->rlen > 0) {
    ssize_t r;
    size_t ahead;
    bool direct;

    if (h->ahead_start < h->ahead_end) {
      take_ahead (h);
      continue;
    }
    /* The kernel had less than we asked for last time: it is empty
     * until poll says otherwise, so don't spend a recv to hear EAGAIN.
     */
    if (h->recv_drained)
      return recv_would_block (h);
    direct = recv_direct (h);
    ahead = h->large_reads ? RECV_AHEAD_NEAR_LARGE : RECV_AHEAD_SIZE;
    if (direct)
      r = h->sock->ops->recv (h->sock, h->rbuf, h->rlen);
    else
      r = h->sock->ops->recv (h->sock, h->ahead, ahead);
    if (r == -1) {
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return recv_would_block (h);
      if (errno == EINTR)
        continue;
      io_error (h, "recv");
      return -1;
    }
    if (r == 0)
      return 2;
    STAT_ADD (h, bytes_received, r);
    if (direct) {
      h->recv_drained = (size_t) r < h->rlen;
      h->rbuf = (char *) h->rbuf + r;
      h->rlen -= r;
    }
    else {
      h->recv_drained = (size_t) r < ahead;
      h->ahead_start = 0;
      h->ahead_end = r;
    }
  }
  set_recv_lowat (h, 1);        /* the next reply may be small */
  return 0;
}

/* During the handshake an end of file is an error (libnbd's words, and
 * like libnbd no errno: a clean end is not a reset).
 */
int
nbd_internal_recv_handshake (struct nbd_handle *h)
{
  switch (nbd_internal_recv_into_rbuf (h)) {
  case -1:
    return -1;
  case 1:
    return 1;
  case 2:
    set_error (0, "recv: server disconnected unexpectedly");
    return -1;
  }
  return 0;
}

/* Send h->wbuf.  Returns 0 done, 1 would block, -1 error (set). */
int
nbd_internal_send_handshake (struct nbd_handle *h)
{
  while (h->wlen > 0) {
    struct iovec iov = { .iov_base = (void *) h->wbuf, .iov_len = h->wlen };
    ssize_t r = h->sock->ops->sendv (h->sock, &iov, 1, h->wflags);

    if (r == -1) {
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return 1;
      if (errno == EINTR)
        continue;
      io_error (h, "send");
      return -1;
    }
    STAT_ADD (h, bytes_sent, r);
    h->wbuf = (const char *) h->wbuf + r;
    h->wlen -= r;
  }
  return 0;
}

bool
nbd_internal_send_pending (struct nbd_handle *h)
{
  return h->gather_sent < h->gather_len || h->big_sent < h->big_len;
}

/* Write CMD's request header at P in the negotiated form: 28 bytes,
 * or 32 with extended headers, whose length field is the payload's
 * when the command carries one (NBD_CMD_FLAG_PAYLOAD_LEN).  Returns
 * its size.
 */
static size_t
put_request (struct nbd_handle *h, char *p, const struct command *cmd)
{
  struct nbd_request req;
  struct nbd_request_ext ext;

  if (h->extended_headers) {
    ext.magic = htobe32 (NBD_EXTENDED_REQUEST_MAGIC);
    ext.flags = htobe16 (cmd->flags);
    ext.type = htobe16 (cmd->type);
    ext.cookie = htobe64 (cmd->cookie);
    ext.offset = htobe64 (cmd->offset);
    ext.count = htobe64 (cmd->filter ? cmd->filter_len : cmd->count);
    memcpy (p, &ext, sizeof ext);
    return sizeof ext;
  }
  req.magic = htobe32 (NBD_REQUEST_MAGIC);
  req.flags = htobe16 (cmd->flags);
  req.type = htobe16 (cmd->type);
  req.cookie = htobe64 (cmd->cookie);
  req.offset = htobe64 (cmd->offset);
  req.count = htobe32 ((uint32_t) cmd->count);
  memcpy (p, &req, sizeof req);
  return sizeof req;
}

/* The payload that follows CMD's header: write data, or a block status
 * filter.
 */
static const char *
request_payload (const struct command *cmd, size_t *len)
{
  *len = 0;
  if (cmd->type == NBD_CMD_WRITE) {
    *len = cmd->count;
    return cmd->data;
  }
  if (cmd->filter)
    *len = cmd->filter_len;
  return cmd->filter;
}

/* Move the queued commands into the gather buffer: each header, and
 * each payload under SMALL_PAYLOAD, copied in order.  A large
 * payload ends the batch and is sent from the caller's buffer.
 * Without batching, one command per batch.
 */
void
nbd_internal_gather_requests (struct nbd_handle *h)
{
  assert (h->cmds_sending == NULL);
  h->gather_len = h->gather_sent = 0;
  h->big_payload = NULL;
  h->big_len = h->big_sent = 0;

  while (h->cmds_to_issue) {
    struct command *cmd = h->cmds_to_issue;
    size_t payload;
    const char *src = request_payload (cmd, &payload);
    /* Without batching, payloads are sent on their own, as libnbd 1.14
     * does: the baseline the benchmarks compare with.
     */
    bool small = h->batching && payload < SMALL_PAYLOAD;
    size_t need = sizeof (struct nbd_request_ext) + (small ? payload : 0);
    size_t start = h->gather_len;     /* where this command's bytes go */

    if (h->gather_len > 0 &&
        (!h->batching || h->gather_len + need > SEND_GATHER_SIZE))
      break;
    h->gather_len += put_request (h, h->gather + h->gather_len, cmd);
    if (small && payload > 0) {
      memcpy (h->gather + h->gather_len, src, payload);
      h->gather_len += payload;
    }
    else if (!small) {
      h->big_payload = src;
      h->big_len = payload;
    }
    /* In flight, open to a reply, only once all of it has left. */
    STAT_ADD (h, chunks_sent, 1);
    nbd_internal_command_gathered (h, cmd, start, h->gather_len + h->big_len);
    if (!small)
      break;
  }
}

/* Cut the gathered send back to its first END bytes (none of the rest
 * has left), for commands abandoned before they began to leave.
 */
void
nbd_internal_gather_truncate (struct nbd_handle *h, size_t end)
{
  assert (end >= h->gather_sent + h->big_sent);
  if (end > h->gather_len)      /* a large payload under way stays */
    return;
  assert (h->big_sent == 0);
  h->gather_len = end;
  h->big_payload = NULL;
  h->big_len = 0;
}

/* Send the gathered bytes and any large payload, in as few sendmsg
 * calls as the socket allows.  MSG_MORE tells the kernel more requests
 * follow at once.  Returns 0 done, 1 would block, -1 error (set).
 */
int
nbd_internal_send_gathered (struct nbd_handle *h)
{
  while (nbd_internal_send_pending (h)) {
    struct iovec iov[2];
    int n = 0;
    ssize_t r;
    int flags = h->cmds_to_issue ? MSG_MORE : 0;

    if (h->gather_sent < h->gather_len) {
      iov[n].iov_base = h->gather + h->gather_sent;
      iov[n++].iov_len = h->gather_len - h->gather_sent;
    }
    if (h->big_sent < h->big_len) {
      iov[n].iov_base = (void *) (h->big_payload + h->big_sent);
      iov[n++].iov_len = h->big_len - h->big_sent;
    }
    if (!h->batching) {
      /* One buffer per call; MSG_MORE on a header that has a payload
       * behind it, and on anything with commands queued behind it.
       */
      if (n == 2 || (h->gather_sent < h->gather_len && h->big_len > 0))
        flags = MSG_MORE;
      n = 1;
    }
    r = h->sock->ops->sendv (h->sock, iov, n, flags);
    if (r == -1) {
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return 1;
      if (errno == EINTR)
        continue;
      io_error (h, "send");
      return -1;
    }
    STAT_ADD (h, bytes_sent, r);
    if ((size_t) r <= h->gather_len - h->gather_sent)
      h->gather_sent += r;
    else {
      r -= h->gather_len - h->gather_sent;
      h->gather_sent = h->gather_len;
      h->big_sent += r;
    }
    nbd_internal_commands_sent (h, h->gather_sent + h->big_sent);
  }
  return 0;
}
