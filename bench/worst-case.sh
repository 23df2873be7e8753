#!/bin/bash -
# bench/worst-case.sh: the client's CPU time on adversarial but valid
# reply patterns, this tree's libnbd against Debian's, side by side.
# Run by hand after make check (it needs tests/fake-server); see
# bench/README.md.
#
# Patterns (tests/fake-server.c scenarios):
#   ooo-1byte     a 1 MiB nbd_pread answered by 1 MiB of 1-byte data
#                 chunks, out of order (even bytes last first, then odd)
#   tiny-chunks   the same chunks, in order
#   many-extents  nbd_block_status answered by 100,000 extents
#   long-list     nbd_opt_list answered by 20,000 exports with
#                 1000-byte names
# One client binary (bench/worst-case-client.c, built against Debian's
# header and -lnbd) runs each pattern on both libraries, ROUNDS (3)
# times, interleaved; the figures are medians of CPU seconds (user +
# system) spent in the one call, and their ratio.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-3}"
patterns="${PATTERNS:-ooo-1byte tiny-chunks many-extents long-list}"
server="$builddir/tests/fake-server"
[ -x "$server" ] ||
  die "no $server: run make check (or make -C tests fake-server)"
[ -f /usr/include/libnbd.h ] || die "no /usr/include/libnbd.h (libnbd-dev)"

tmpdir="$(mktemp -d)"
trap 'rm -rf "$tmpdir"' EXIT
client="$tmpdir/worst-case-client"
env -u CPATH -u C_INCLUDE_PATH -u LIBRARY_PATH -u LD_LIBRARY_PATH \
  gcc -O2 -Wall -Wextra "$bench_dir/worst-case-client.c" -o "$client" -lnbd

peer ()
{
  env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}" \
    "$client" "$server" "$1"
}
ours ()
{
  "$builddir/run" env "${unfair_env[@]}" "$client" "$server" "$1"
}

median ()
{
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "system libnbd: $(dpkg-query -W -f='${Version}' libnbd0 2>/dev/null)"
printf '%-14s %12s %12s %8s  %s\n' pattern "peer cpu s" "ours cpu s" \
  ours/peer "outcome (peer, ours)"
for p in $patterns; do
  : >"$tmpdir/peer" ; : >"$tmpdir/ours"
  for ((i = 0; i < rounds; i++)); do
    peer "$p" >>"$tmpdir/peer"
    ours "$p" >>"$tmpdir/ours"
  done
  a="$(awk '{ print $1 }' "$tmpdir/peer" | median)"
  b="$(awk '{ print $1 }' "$tmpdir/ours" | median)"
  ratio="$(awk -v a="$a" -v b="$b" \
    'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }')"
  printf '%-14s %12s %12s %8s  %s, %s\n' "$p" "$a" "$b" "$ratio" \
    "$(awk 'NR == 1 { print $2 }' "$tmpdir/peer")" \
    "$(awk 'NR == 1 { print $2 }' "$tmpdir/ours")"
done
