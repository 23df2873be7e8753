#!/usr/bin/env bash
# test-reconnect-stopped.sh: a server that stops answering without
# closing the connection (SIGSTOP: what a half-open connection looks
# like), while a new server takes its socket's name.  The requests under
# way get no reply: after --request-timeout nbdfuse takes the connection
# for dead and reconnects, to the new server, and dd finishes.  Without
# the timeout it would wait for ever.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=delay null --version
make_tmpdir
mkdir "$tmp/mp"

head -c 16M /dev/urandom > "$tmp/pattern"
truncate -s 16M "$tmp/disk"
server=(--filter=delay file "$tmp/disk" delay-write=10ms)

start_nbdkit "$tmp/sock" "${server[@]}"
old=$(cat "$tmp/sock.pid")
start_nbdfuse "$tmp/mp" --reconnect=30 --request-timeout=2 \
              "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
dd if="$tmp/pattern" of="$tmp/mp/nbd" bs=64k oflag=direct \
   conv=notrunc,fsync status=none &
dd_pid=$!
cleanup_fn "kill $dd_pid 2>/dev/null"
sleep 1
if ! kill -0 $dd_pid 2>/dev/null; then
  echo "$0: dd finished before the server was stopped: it is too fast"
  exit 1
fi
# Never continued: what it received and did not reply to is dropped
# when it is killed at the end.
kill -STOP "$old"
cleanup_fn "kill -KILL $old"
# For a while the socket still leads to the stopped server, which
# accepts a connection and never answers it: an attempt to reconnect
# must give up too (after the request timeout) and try again.
sleep 4
restart_nbdkit "$tmp/sock" "${server[@]}"
wait $dd_pid
stop_nbdfuse "$tmp/mp"
cat "$tmp/err"
grep -q 'lost: no reply for 2 s: reconnecting' "$tmp/err"
# "1 reconnect" once common/reconnect.c says it in the singular.
grep -q 'nbdfuse: 1 reconnects\?, waited' "$tmp/err"
cmp "$tmp/pattern" "$tmp/disk"
