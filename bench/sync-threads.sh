#!/bin/bash -
# bench/sync-threads.sh: synchronous nbd_pread from several threads on
# one handle (bench/sync-threads-client.c), ours and libnbd 1.22.2, the
# same binary on both, interleaved rounds, medians of reads/s and of
# client CPU seconds per thousand reads.  Workloads (issue 31):
#   delay   8 threads x 25 reads, 4 KiB, nbdkit memory behind
#           --filter=delay rdelay=10ms
#   nodelay 4 threads x 20000 reads, 4 KiB, nbdkit memory
#   single  1 thread x 50000 reads, 4 KiB, nbdkit memory
#
#   ROUNDS (5), WORKLOADS ("delay nodelay single"), PEER13 (1.22.2)
set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
workloads="${WORKLOADS:-delay nodelay single}"
peer13="${PEER13:-/var/cache/libnbd-peers/debian13}"
[ -x "$peer13/run" ] || die "no libnbd 1.22.2 at $peer13 (set PEER13)"
require nbdkit gcc

tmpdir="$(mktemp -d)"
trap 'stop_server; rm -rf "$tmpdir"' EXIT
client="$tmpdir/sync-threads-client"
gcc -O2 -Wall -pthread -I"$builddir/include" \
  "$bench_dir/sync-threads-client.c" -o "$client" \
  -L"$builddir/lib/.libs" -lnbd

median () { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for w in $workloads; do
  case $w in
    delay) args=(8 25); filter=(--filter=delay); extra=(rdelay=10ms) ;;
    nodelay) args=(4 20000); filter=(); extra=() ;;
    single) args=(1 50000); filter=(); extra=() ;;
    *) die "unknown workload $w" ;;
  esac
  rm -f "$tmpdir/sock"
  nbdkit -f -U "$tmpdir/sock" "${filter[@]}" memory 1M "${extra[@]}" &
  server_pid=$!
  while [ ! -S "$tmpdir/sock" ]; do sleep 0.1; done
  : > "$tmpdir/ours"; : > "$tmpdir/peer"
  for r in $(seq "$rounds"); do
    "$builddir/run" env "${unfair_env[@]}" \
      "$client" "$tmpdir/sock" "${args[@]}" >> "$tmpdir/ours"
    env -u LD_LIBRARY_PATH "${unfair_env[@]}" \
      "$peer13/run" "$client" "$tmpdir/sock" "${args[@]}" >> "$tmpdir/peer"
  done
  stop_server
  or=$(cut -d' ' -f1 "$tmpdir/ours" | median)
  pr=$(cut -d' ' -f1 "$tmpdir/peer" | median)
  oc=$(cut -d' ' -f2 "$tmpdir/ours" | median)
  pc=$(cut -d' ' -f2 "$tmpdir/peer" | median)
  echo "$w (${args[0]} threads x ${args[1]} reads): reads/s ours $or," \
       "1.22.2 $pr, ratio $(awk -v o="$or" -v p="$pr" 'BEGIN { printf "%.2f", o / p }');" \
       "client CPU s per 1000 reads ours $oc, 1.22.2 $pc"
done
