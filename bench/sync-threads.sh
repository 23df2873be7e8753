#!/bin/bash -
# bench/sync-threads.sh: synchronous nbd_pread from several threads on
# one handle (bench/sync-threads-client.c), ours and libnbd 1.22.2 (or PEER), the
# same binary on both, interleaved rounds, medians of reads/s and of
# client CPU seconds per thousand reads.  Workloads (issue 31):
#   delay   8 threads x 25 reads, 4 KiB, nbdkit memory behind
#           --filter=delay rdelay=10ms
#   nodelay 4 threads x 20000 reads, 4 KiB, nbdkit memory
#   single  1 thread x 50000 reads, 4 KiB, nbdkit memory
#
#   ROUNDS (5), WORKLOADS ("delay nodelay single"), PEER (1.22.2 or
#   1.24.4), PEER13, PEERSID (see functions.sh require_peer_run)
set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
workloads="${WORKLOADS:-delay nodelay single}"
require_peer_run
require nbdkit gcc

tmpdir="$(mktemp -d)"
sock="$tmpdir/sock"
trap 'stop_server; rm -rf "$tmpdir"' EXIT
build_client sync-threads-client -pthread

for w in $workloads; do
  case $w in
    delay) args=(8 25); server=(--filter=delay memory 1M rdelay=10ms) ;;
    nodelay) args=(4 20000); server=(memory 1M) ;;
    single) args=(1 50000); server=(memory 1M) ;;
    *) die "unknown workload $w" ;;
  esac
  start_server "${server[@]}"
  rounds_ours_peer sync-threads-client "$sock" "${args[@]}"
  stop_server
  or=$(cut -d' ' -f1 "$tmpdir/ours" | median)
  pr=$(cut -d' ' -f1 "$tmpdir/peer" | median)
  oc=$(cut -d' ' -f2 "$tmpdir/ours" | median)
  pc=$(cut -d' ' -f2 "$tmpdir/peer" | median)
  echo "$w (${args[0]} threads x ${args[1]} reads): reads/s ours $or," \
       "$peer_name $pr, ratio $(awk -v o="$or" -v p="$pr" 'BEGIN { printf "%.2f", o / p }');" \
       "client CPU s per 1000 reads ours $oc, $peer_name $pc"
done
