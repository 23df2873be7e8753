#!/usr/bin/env bash
# copy-reconnect-shutdown.sh: a destination nbdkit stopped cleanly
# (SIGTERM) in the middle of a copy fails the requests it was serving
# with NBD_ESHUTDOWN; with --reconnect that is a reconnect, not an
# I/O error: once it is started again the copy finishes, equal.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=rate null --version
make_tmpdir
size=$((64 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
truncate -s $size "$tmp/dst"

# Slowed to about 20 MB/s: the rate filter's waits are what nbdkit
# cuts short with NBD_ESHUTDOWN when it is told to stop.
dst=(--filter=rate file "$tmp/dst" rate=160M)
start_nbdkit "$tmp/dst.sock" "${dst[@]}"
start_copy "$tmp/err" "$tmp/progress" -v \
  --reconnect=60 --reconnect-delay=0.1:1 --checkpoint-bytes=4M \
  "$tmp/src" "$uri"
wait_progress "$tmp/progress" 30
pid=$(cat "$tmp/dst.sock.pid")
kill -TERM "$pid"
for _ in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
rm -f "$tmp/dst.sock" "$tmp/dst.sock.pid"
start_nbdkit "$tmp/dst.sock" "${dst[@]}"
finish_copy "$tmp/err"

test $copy_status -eq 0
cmp "$tmp/src" "$tmp/dst"
reconnect_summary "$tmp/err"
test "$reconnects" -ge 1
# The break was told by the server, as ESHUTDOWN ("Cannot send after
# transport endpoint shutdown"), not only found as a closed socket.
grep -q 'shutdown: reconnecting$' "$tmp/err"
