#!/usr/bin/env bash
# copy-reconnect-window.sh: a destination server that does not come
# back within --reconnect=SECONDS ends the copy with exit 1 and a
# message saying so (not a hang, and not exit 3: nothing changed).
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=rate null --version
make_tmpdir
size=$((64 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
truncate -s $size "$tmp/dst"

start_nbdkit "$tmp/dst.sock" --filter=rate file "$tmp/dst" rate=160M
start_copy "$tmp/err" "$tmp/progress" \
  --reconnect=2 --reconnect-delay=0.1:0.5 --checkpoint-bytes=4M \
  "$tmp/src" "$uri"
wait_progress "$tmp/progress" 20
kill_nbdkit "$tmp/dst.sock"
finish_copy "$tmp/err"

test $copy_status -eq 1
grep -q 'could not reconnect within 2 seconds' "$tmp/err"
