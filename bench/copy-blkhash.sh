#!/usr/bin/env bash
# copy-blkhash.sh: benchmark 5 of nbdcopy: --blkhash (sha256, 64k
# blocks) of a 16G sparse-random image, from a file and from nbdkit,
# against sha256sum of the same file; the block hash is checked once
# against bench's Python reference.  About 2 minutes.
set -e
source "$(dirname "$0")/copy-env.sh"
dir="${BENCH_DIR:-/var/tmp/copy-bench}"
mkdir -p "$dir"
img="$dir/sr16g.img"
[ -f "$img" ] ||
  nbdkit -U - sparse-random size=16G seed=1 --run "$DEBIAN \$uri $img"
sr="nbdkit -U - sparse-random size=16G seed=1 --run"

$RUN --rounds "${ROUNDS:-3}" --data "${DATA_PREFIX:-/tmp/copy-bench}-blkhash.dat" \
  "ours-file=\$TIME $OURS --blkhash $img null: > $dir/h1" \
  "ours-nbd=$sr '\$TIME $OURS --blkhash \$uri null: > $dir/h2'" \
  "sha256sum=\$TIME sha256sum $img > $dir/h3"

cmp "$dir/h1" "$dir/h2"
ref=$(python3 "$bench_dir/../copy/blkhash-reference.py" "$img" sha256 65536)
test "$ref" = "$(cat "$dir/h1")"
echo "block hash $ref agrees with the Python reference"
