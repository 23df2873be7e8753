#!/usr/bin/env bash
# copy-reconnect-lost.sh: an nbdkit memory destination killed with
# SIGKILL after the copy made some of its writes durable (a flush
# succeeded), and started again empty on the same socket, has lost
# them: the same size and flags, but not the same disk.  With
# --reconnect the copy must notice on reconnecting (it reads back
# blocks of the data made durable) and fail with exit status 3 and a
# message saying so.  Issue 44: it exited 0 with 16.7 MB wrong, since
# it copied again only what was written since the last flush.
source "${srcdir:-.}/copy-functions.sh"
set -e
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
nbdkit148=$peer/nbdkit
if ! "$nbdkit148" --filter=log --filter=rate memory --version \
     >/dev/null 2>&1; then
  echo "$0: SKIP: needs nbdkit 1.48 in $peer (scripts/peer-libnbd-1.24.sh):"
  echo "$0: Debian 12's nbdkit 1.32 aborts when a client dies mid-write"
  exit 77
fi
make_tmpdir
size=$((128 * 1024 * 1024))
put_random "$tmp/src" 0 $size
sock="$tmp/dst.sock"

# dst ARGS...: (re)start the destination on the same socket.
dst ()
{
  [ ! -s "$sock.pid" ] || kill_nbdkit "$sock"
  rm -f "$sock" "$sock.pid"
  "$nbdkit148" -U "$sock" -P "$sock.pid" -f "$@" &
  wait_for_file "$sock.pid" nbdkit
}
cleanup_fn sh -c "kill \$(cat '$sock.pid') 2>/dev/null || :"

# Slowed to about 20 MB/s; the log shows when a flush succeeded.
dst --filter=log --filter=rate memory $size rate=160M logfile="$tmp/log"
start_copy "$tmp/err" "$tmp/progress" -v \
  --reconnect=30 --reconnect-delay=0.1:1 --checkpoint-bytes=1M \
  "$tmp/src" "nbd+unix:///?socket=$sock"
for _ in $(seq 600); do
  grep -q '\.\.\.Flush id=[0-9]* return=0' "$tmp/log" 2>/dev/null && break
  sleep 0.1
done
grep -q '\.\.\.Flush id=[0-9]* return=0' "$tmp/log"
wait_progress "$tmp/progress" 1
sleep 0.2
dst memory $size
finish_copy "$tmp/err"

if [ $copy_status = 0 ]; then
  nbdcopy "nbd+unix:///?socket=$sock" "$tmp/out"
  cmp "$tmp/src" "$tmp/out" || :
  echo "$0: FAIL: exit 0 over a destination that lost durable writes"
  exit 1
fi
test $copy_status = 3
m='the destination came back without data it had made durable (at offset'
m+=' [0-9]*): it is empty or another disk, so the copy cannot go on'
grep "$m" "$tmp/err"
