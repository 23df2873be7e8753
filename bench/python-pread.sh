#!/bin/bash -
# bench/python-pread.sh: client CPU time (user+sys of the Python
# process) of 100,000 blocking 512-byte h.pread calls against one nbdkit
# memory server over a Unix socket: our nbd module against Debian's
# python3-libnbd, both under /usr/bin/python3, interleaved A B A B for
# 5 rounds after a warm-up.  Prints each round and the median of the
# per-round ratios ours/Debian's.
# Usage: bench/python-pread.sh [N-CALLS] [ROUNDS]
set -euo pipefail
source "$(dirname "$0")/functions.sh"

n="${1:-100000}"
rounds="${2:-5}"
py=/usr/bin/python3
script="$bench_dir/python-pread.py"
require nbdkit
[ -x "$py" ] || die "needs $py"
"$py" -c 'import nbd' 2>/dev/null ||
  die "needs Debian's python3-libnbd for $py"
ls "$builddir"/python/libnbdmod*.so >/dev/null 2>&1 ||
  die "build the tree first (python/libnbdmod*.so is missing)"

# Our extension is built for the configured python3; it must load in
# /usr/bin/python3 too (same ABI), and it must map our libnbd.
ours ()
{
  env "${unfair_env[@]}" PYTHONPATH="$builddir/python" \
    LD_LIBRARY_PATH="$builddir/lib/.libs" "$py" "$@"
}
debians ()
{
  env "${unfair_env[@]}" -u PYTHONPATH -u LD_LIBRARY_PATH -u LD_PRELOAD \
    "$py" "$@"
}
check='import nbd, os
h = nbd.NBD()
print(h.get_version(), nbd.__file__,
      sorted({l.split()[-1] for l in open("/proc/self/maps")
              if "libnbd.so" in l}))'
echo "ours:     $(ours -c "$check")"
echo "Debian's: $(debians -c "$check")"

tmp="$(mktemp -d)"
trap 'kill $(cat "$tmp/pid" 2>/dev/null) 2>/dev/null || :; rm -rf "$tmp"' EXIT
start_memory_server "$tmp"

ours "$script" "$tmp/sock" "$n" >/dev/null        # warm-up
debians "$script" "$tmp/sock" "$n" >/dev/null
ratios=()
for r in $(seq "$rounds"); do
  a=$(ours "$script" "$tmp/sock" "$n")
  b=$(debians "$script" "$tmp/sock" "$n")
  ratio=$(awk -v a="${a#* }" -v b="${b#* }" \
            'BEGIN { split(a, x, " "); split(b, y, " ");
                     printf "%.3f", x[1] / y[1] }')
  echo "round $r: ours $a   Debian's $b   cpu ratio $ratio"
  ratios+=("$ratio")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n |
           awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "median cpu ratio ours/Debian's: $median"
