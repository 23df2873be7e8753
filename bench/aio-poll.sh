#!/bin/bash -
# bench/aio-poll.sh: the aio polling pattern (bench/aio-poll-client.c:
# N reads issued at once, then poll and ask nbd_aio_command_completed
# after every outstanding cookie) on ours and on libnbd 1.22.2 (or PEER), the
# same binary on both, interleaved rounds, median seconds and ratio.
# The time grows with how costly asking after a cookie not yet done is.
#
#   N (20000), ROUNDS (3), PEER (1.22.2 or 1.24.4), PEER13, PEERSID
#   (where they are unpacked: see functions.sh require_peer_run)
set -euo pipefail
. "$(dirname "$0")/functions.sh"

n="${N:-20000}"
rounds="${ROUNDS:-3}"
require_peer_run
require nbdkit gcc

tmpdir="$(mktemp -d)"
sock="$tmpdir/sock"
trap 'stop_server; rm -rf "$tmpdir"' EXIT
build_client aio-poll-client
start_server memory 1M
rounds_ours_peer aio-poll-client "$sock" "$n"
stop_server
o=$(median < "$tmpdir/ours"); p=$(median < "$tmpdir/peer")
echo "aio polling, $n reads: ours ${o}s, libnbd $peer_name ${p}s," \
     "ratio ($peer_name / ours) $(awk -v o="$o" -v p="$p" 'BEGIN { printf "%.1f", p / o }')"
