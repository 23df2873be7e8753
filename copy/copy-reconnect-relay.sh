#!/usr/bin/env bash
# copy-reconnect-relay.sh: with --reconnect, nbdcopy survives TCP
# connections to its destination, then to its source, cut at random
# points by a relay, and a connection the relay stops forwarding
# without closing (a half-open peer, found by --request-timeout): each
# time the copy finishes and the destination equals the source.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires python3 --version
make_tmpdir
size=$((128 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"

# start_relay ARGS...: the relay on a loopback TCP port in front of
# the server's socket $tmp/server.sock, with the fault ARGS; $relay_uri
# is its URI and its log (one line a fault) goes to $tmp/relay.log.
start_relay ()
{
  local relay
  rm -f "$tmp/port"
  python3 "${srcdir:-.}/reconnect-relay.py" --listen=127.0.0.1:0 \
    --target-unix="$tmp/server.sock" --port-file="$tmp/port" "$@" \
    2>"$tmp/relay.log" &
  relay=$!
  cleanup_fn "kill $relay 2>/dev/null"
  wait_for_file "$tmp/port" "the relay"
  relay_uri="nbd://127.0.0.1:$(cat "$tmp/port")"
  relay_pid=$relay
}

# copy_through_relay to|from NBDCOPY-OPTION...: a fresh destination, a
# server for the destination (to) or the source (from) behind the
# relay, the copy, and the checks of the result.
copy_through_relay ()
{
  local way=$1 src dst
  shift
  rm -f "$tmp/dst"
  truncate -s $size "$tmp/dst"
  # nbdkit 1.48 (use_nbdkit_1_48): nbdkit before 1.34 (commit
  # 9d82aa4f) can abort on an assertion when a client hangs up with
  # several replies queued, as the relay's cuts make it do.
  if [ "$way" = to ]; then
    start_nbdkit "$tmp/server.sock" file "$tmp/dst"
    src=$tmp/src dst=$relay_uri
  else
    start_nbdkit "$tmp/server.sock" -r file "$tmp/src"
    src=$relay_uri dst=$tmp/dst
  fi
  start_copy "$tmp/err" "$tmp/progress" \
    --reconnect=60 --reconnect-delay=0.1:1 --checkpoint-bytes=4M \
    "$@" "$src" "$dst"
  finish_copy "$tmp/err"
  kill_nbdkit "$tmp/server.sock"
  rm -f "$tmp/server.sock" "$tmp/server.sock.pid"
  cat "$tmp/relay.log"
  test $copy_status -eq 0
  cmp "$tmp/src" "$tmp/dst"
  reconnect_summary "$tmp/err"
  test "$reconnects" -ge 1
}

# Cuts at random points, about every 10 MB (seeded, so a failure can be
# repeated), eight of them at most so the copy must end.
for way in to from; do
  start_relay --cut-random=1:10000000 --max-faults=8
  copy_through_relay $way
  test "$(grep -c ' cut after ' "$tmp/relay.log")" -ge 2
  kill "$relay_pid"
done

# The first connection goes silent after 20 MB, both ways, and stays
# open: only the request timeout can tell it is dead.
for way in to from; do
  start_relay --stall-after=20000000
  copy_through_relay $way --request-timeout=2
  grep -q ' stalled after ' "$tmp/relay.log"
  kill "$relay_pid"
done
