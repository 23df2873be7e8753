#!/usr/bin/env bash
# copy-blkhash.sh: benchmark 5 of nbdcopy: --blkhash (sha256, 64k
# blocks) of a sparse-random image (SIZE, default 16G), from a file and
# from nbdkit, against sha256sum of the same file; the block hash is
# checked once against the tests' Python reference.  sha256sum reads
# every byte of the 16G, holes included: about 10 s a round on an idle
# machine, so 3 rounds; use SIZE=4G on a busy one.
set -e
source "$(dirname "$0")/copy-env.sh"
dir="${BENCH_DIR:-/var/tmp/copy-bench}"
mkdir -p "$dir"
SIZE="${SIZE:-16G}"
img="$dir/sr$SIZE.img"
[ -f "$img" ] ||
  nbdkit -U - sparse-random size=$SIZE seed=1 --run "$DEBIAN \$uri $img"
sr="nbdkit -U - sparse-random size=$SIZE seed=1 --run"

$RUN --rounds "${BLKHASH_ROUNDS:-3}" --data "${DATA_PREFIX:-/tmp/copy-bench}-blkhash.dat" \
  "ours-file=\$TIME $OURS --blkhash $img null: > $dir/h1" \
  "ours-nbd=$sr '\$TIME $OURS --blkhash \$uri null: > $dir/h2'" \
  "sha256sum=\$TIME sha256sum $img > $dir/h3"

cmp "$dir/h1" "$dir/h2"
ref=$(python3 "$bench_dir/../copy/blkhash-reference.py" "$img" sha256 65536)
test "$ref" = "$(cat "$dir/h1")"
echo "block hash $ref agrees with the Python reference"
