#!/usr/bin/env bash
# test-parallel.sh: four connections (-C 4) and FUSE threads serving
# parallel writers and readers of different parts of the file; then
# the same single-threaded (-s) on one connection.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit memory --version
make_tmpdir
quarter=$((4 * 1024 * 1024))
size=$((4 * quarter))
head -c $size /dev/urandom > "$tmp/data"
start_nbdkit "$tmp/sock" memory size=$size
mkdir "$tmp/mp"

# parallel_rw: write each quarter from its own dd, all at once, then
# read each back (and all of it twice) at once.
parallel_rw ()
{
  local pids=() i pid
  for i in 0 1 2 3; do
    dd if="$tmp/data" of="$tmp/mp/nbd" bs=1M count=4 skip=$((i * 4)) \
       seek=$((i * 4)) conv=notrunc,nocreat status=none &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait $pid; done
  pids=()
  for i in 0 1 2 3; do
    cmp <(dd if="$tmp/data" bs=1M count=4 skip=$((i * 4)) status=none) \
        <(dd if="$tmp/mp/nbd" bs=1M count=4 skip=$((i * 4)) iflag=direct \
             status=none) &
    pids+=($!)
  done
  cmp "$tmp/data" "$tmp/mp/nbd" & pids+=($!)
  cmp "$tmp/data" "$tmp/mp/nbd" & pids+=($!)
  for pid in "${pids[@]}"; do wait $pid; done
}

start_nbdfuse "$tmp/mp" -v -C 4 "$tmp/mp" --unix "$tmp/sock" \
  2> "$tmp/err"
parallel_rw
stop_nbdfuse "$tmp/mp"
grep 'nbdfuse: connections=4' "$tmp/err"

# Different data this time, so the second run is seen to write.
head -c $size /dev/urandom > "$tmp/data"
start_nbdfuse "$tmp/mp" -s -C 1 "$tmp/mp" --unix "$tmp/sock"
parallel_rw
stop_nbdfuse "$tmp/mp"
