#!/bin/bash -
# test-examples.sh: the OCaml examples against nbdkit: get_size,
# extents (32-bit and 64-bit block status) and asynch_copy.
set -euo pipefail
ex="$abs_builddir/examples"
d=$(mktemp -d)
pids=()
cleanup () { kill "${pids[@]}" 2>/dev/null || :; rm -rf "$d"; }
trap cleanup EXIT

# Source: data in its first 64K, then a hole; destination: empty.
nbdkit -f -U "$d/src" -P "$d/src.pid" --exit-with-parent \
  data '1 * 65536' size=1M &
pids+=($!)
nbdkit -f -U "$d/dst" -P "$d/dst.pid" --exit-with-parent memory 1M &
pids+=($!)
# nbdkit writes its pid file once it listens (the socket's file
# exists from bind, before, when a connect is refused).
for s in src dst; do
  for i in $(seq 100); do [ -s "$d/$s.pid" ] && break; sleep 0.1; done
done
src="nbd+unix:///?socket=$d/src"
dst="nbd+unix:///?socket=$d/dst"

size=$("$ex/get_size.opt" "$src")
[ "$size" = 1048576 ] || { echo "get_size: $size"; exit 1; }

for e in extents extents64; do
  "$ex/$e.opt" "$src" > "$d/$e.out"
  cat "$d/$e.out"
  # The first extent is the 64K of data, then holes to the end.
  head -1 "$d/$e.out" | grep -qx '0 65536 0' || { echo "$e: bad first line"; exit 1; }
  awk '{ s += $2 } END { if (s != 1048576) exit 1 }' "$d/$e.out" ||
    { echo "$e: extents do not cover the export"; exit 1; }
done

"$ex/asynch_copy.opt" "$src" "$dst"
# The destination now reads as the source (nbdcopy of this tree).
cmp <(nbdcopy "$src" -) <(nbdcopy "$dst" -)
echo "asynch_copy: destination equals source"
