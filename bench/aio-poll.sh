#!/bin/bash -
# bench/aio-poll.sh: the aio polling pattern (bench/aio-poll-client.c:
# N reads issued at once, then poll and ask nbd_aio_command_completed
# after every outstanding cookie) on ours and on libnbd 1.22.2, the
# same binary on both, interleaved rounds, median seconds and ratio.
# The time grows with how costly asking after a cookie not yet done is.
#
#   N (20000), ROUNDS (3), PEER13 (unpacked 1.22.2, see matrix.sh)
set -euo pipefail
. "$(dirname "$0")/functions.sh"

n="${N:-20000}"
rounds="${ROUNDS:-3}"
peer13="${PEER13:-/var/cache/libnbd-peers/debian13}"
[ -x "$peer13/run" ] || die "no libnbd 1.22.2 at $peer13 (set PEER13)"
require nbdkit gcc

tmpdir="$(mktemp -d)"
trap 'kill $(cat "$tmpdir/pid" 2>/dev/null) 2>/dev/null; rm -rf "$tmpdir"' EXIT
client="$tmpdir/aio-poll-client"
# Our header and library to build; which library runs is the loader's.
gcc -O2 -Wall -I"$builddir/include" "$bench_dir/aio-poll-client.c" \
  -o "$client" -L"$builddir/lib/.libs" -lnbd
nbdkit -U "$tmpdir/sock" -P "$tmpdir/pid" memory 1M
while [ ! -S "$tmpdir/sock" ]; do sleep 0.1; done

ours () { "$builddir/run" env "${unfair_env[@]}" "$client" "$tmpdir/sock" "$n"; }
peer () { env -u LD_LIBRARY_PATH "${unfair_env[@]}" \
            "$peer13/run" "$client" "$tmpdir/sock" "$n"; }
median () { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: > "$tmpdir/ours"; : > "$tmpdir/peer"
for r in $(seq "$rounds"); do
  ours >> "$tmpdir/ours"
  peer >> "$tmpdir/peer"
done
o=$(median < "$tmpdir/ours"); p=$(median < "$tmpdir/peer")
echo "aio polling, $n reads: ours ${o}s, libnbd 1.22.2 ${p}s," \
     "ratio (1.22.2 / ours) $(awk -v o="$o" -v p="$p" 'BEGIN { printf "%.1f", p / o }')"
