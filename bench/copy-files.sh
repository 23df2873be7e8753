#!/usr/bin/env bash
# copy-files.sh: benchmark 4 of nbdcopy: file to file, a 4G sparse file
# with about 1.2 GB of data, ours vs Debian's nbdcopy vs
# "cp --sparse=always" vs "qemu-img convert -W" (-m 16); every copy
# is compared with the source at the end.  Each copy starts after
# sync, so none pays for the writeback of the one before it.  About 2
# minutes plus the compare.
set -e
source "$(dirname "$0")/copy-env.sh"
dir="${BENCH_DIR:-/var/tmp/copy-bench}"
mkdir -p "$dir"
src="$dir/src.img"
if [ ! -f "$src" ]; then
  nbdkit -U - sparse-random size=4G seed=1 percent=30 \
    --run "$DEBIAN \$uri $src"
fi
echo "source: $src, $(stat -c %s "$src") bytes, $(( $(stat -c %b "$src") * 512 )) allocated"

$RUN --rounds "$ROUNDS" --data "${DATA_PREFIX:-/tmp/copy-bench}-files.dat" \
  "ours=rm -f $dir/d1; sync; \$TIME $OURS $src $dir/d1" \
  "debian=rm -f $dir/d2; sync; \$TIME $DEBIAN $src $dir/d2" \
  "cp=rm -f $dir/d3; sync; \$TIME cp --sparse=always $src $dir/d3" \
  "qemu-img-W=rm -f $dir/d4; sync; \$TIME qemu-img convert -W -m 16 -f raw -O raw $src $dir/d4"

for d in d1 d2 d3 d4; do cmp "$src" "$dir/$d"; done
echo "all copies identical to the source"
rm -f "$dir"/d[1-4]
