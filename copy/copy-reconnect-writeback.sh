#!/usr/bin/env bash
# copy-reconnect-writeback.sh: the destination nbdkit keeps written
# data in a writeback cache until a flush, so killing it really loses
# writes it acknowledged.  With --reconnect, nbdcopy replays what it
# wrote since the last flush and the destination equals the source;
# with --no-replay the same copy must leave the destination different,
# or this test would pass without the replay and prove nothing.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=rate null --version
requires nbdkit --filter=cache null --version
make_tmpdir
size=$((256 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
start_nbdkit "$tmp/src.sock" -r file "$tmp/src"
src_uri=$uri

# copy_under_kills [NBDCOPY-OPTION...]: copy to a fresh destination
# behind the writeback cache (slowed to about 40 MB/s), killing its
# server twice.
#
# nbdcopy --reconnect copies in ranges of 32M (or --checkpoint-bytes,
# if smaller), and after a reconnect copies the range it was in again
# even with --no-replay: it held the requests in flight.  So that
# --no-replay can lose anything, the copy must go several ranges
# without a checkpoint: one worker (-C 1), none before the end (1G,
# 600 s).  Each kill, in the middle of the 4th range since the last
# flush (the copy flushes once it has replayed), then drops at least
# two ranges that only the replay writes again.
copy_under_kills ()
{
  local dst
  rm -f "$tmp/dst"
  truncate -s $size "$tmp/dst"
  # The cache filter keeps its blocks in an unlinked temporary file,
  # gone with the process.
  dst=(--filter=rate --filter=cache file "$tmp/dst"
       rate=320M cache=writeback)
  start_nbdkit "$tmp/dst.sock" "${dst[@]}"
  # No --flush: with --reconnect the copy ends durable anyway, as it
  # must, since the server is killed at the end.
  start_copy "$tmp/err" "$tmp/progress" -C 1 \
    --reconnect=60 --reconnect-delay=0.1:1 \
    --checkpoint-bytes=1G --checkpoint-seconds=600 \
    "$@" "$src_uri" "$uri"
  # The middles of the 4th and the 7th ranges of 32M.
  for pct in 43 81; do
    wait_progress "$tmp/progress" $pct
    restart_nbdkit "$tmp/dst.sock" "${dst[@]}"
  done
  finish_copy "$tmp/err"
  kill_nbdkit "$tmp/dst.sock"
  rm -f "$tmp/dst.sock" "$tmp/dst.sock.pid"
}

copy_under_kills
test $copy_status -eq 0
cmp "$tmp/src" "$tmp/dst"
reconnect_summary "$tmp/err"
test "$reconnects" -ge 2
test "$replayed" -gt 0

# Without the replay, the writes the kills lost stay lost.
copy_under_kills --no-replay
test $copy_status -eq 0
if cmp -s "$tmp/src" "$tmp/dst"; then
  echo "$0: FAIL: equal without the replay: the kills lost nothing"
  exit 1
fi
