#!/usr/bin/env bash
# test-signal-stuck.sh: SIGTERM while a read waits for a server that
# is slow to reply: nbdfuse unmounts and exits within seconds (the read
# fails), instead of waiting for the reply.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit memory --version
requires nbdkit --filter=delay null --version
make_tmpdir
mkdir "$tmp/mp"

start_nbdkit "$tmp/sock" --filter=delay memory size=1M rdelay=30
set -m
start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
set +m

dd if="$tmp/mp/nbd" of=/dev/null bs=4k count=1 iflag=direct \
   2> "$tmp/dd-err" &
dd_pid=$!
cleanup_fn "kill $dd_pid 2>/dev/null"
# Long enough for the read to reach nbdkit.
sleep 2
start=$(date +%s)
kill -TERM $nbdfuse_pid
for _ in $(seq 100); do
  kill -0 $nbdfuse_pid 2>/dev/null || break
  sleep 0.1
done
elapsed=$(($(date +%s) - start))
if kill -0 $nbdfuse_pid 2>/dev/null; then
  echo "$0: nbdfuse still runs 10 s after SIGTERM"
  exit 1
fi
wait_nbdfuse
cat "$tmp/err"
echo "nbdfuse exited with $status after $elapsed s"
if is_mounted "$tmp/mp"; then
  echo "$0: still mounted after SIGTERM"
  exit 1
fi
dd_status=0
wait $dd_pid || dd_status=$?
cat "$tmp/dd-err"
if [ $dd_status = 0 ]; then
  echo "$0: the read that got no reply succeeded"
  exit 1
fi
# The read failed, so the exit status says so.
test $status = 1
grep -q 'gave up waiting for replies at exit' "$tmp/err"
