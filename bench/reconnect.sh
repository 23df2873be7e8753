#!/usr/bin/env bash
# reconnect.sh: what --reconnect costs when nothing fails.  A dense 4G
# local file copied to an nbdkit file destination on a Unix socket by
# this tree's nbdcopy, without --reconnect ("off"), with it ("on",
# default checkpoints: a flush per connection every 16G or 30 s, so
# none in a copy this short), with checkpoints every 1G per connection
# ("on-1G": what a checkpoint costs), and without --reconnect but with
# --flush ("off-flush": the price of one flush at the end).  Wall time and client CPU,
# medians of interleaved rounds; every copy is checked against the
# source at the end.  Each copy starts after sync, so none pays for
# the writeback of the one before it.
#
#   ROUNDS=5 bench/reconnect.sh
set -e
source "$(dirname "$0")/copy-env.sh"
dir="${BENCH_DIR:-/var/tmp/reconnect-bench}"
mkdir -p "$dir"
src="$dir/src.img"
if [ ! -f "$src" ]; then
  nbdkit -U - random size=4G --run "$OURS \$uri $src"
fi
echo "source: $src, $(stat -c %s "$src") bytes, $(( $(stat -c %b "$src") * 512 )) allocated"

sock="$dir/dst.sock"
pidf="$dir/dst.pid"
rm -f "$sock" "$dir/dst.img"
truncate -s 4G "$dir/dst.img"
nbdkit -U "$sock" -P "$pidf" file "$dir/dst.img"
trap 'kill $(cat "$pidf") 2>/dev/null || :' EXIT
uri="nbd+unix:///?socket=$sock"

$RUN --rounds "$ROUNDS" --data "${DATA_PREFIX:-/tmp/reconnect-bench}.dat" \
  "off=sync; \$TIME $OURS $src '$uri'" \
  "on=sync; \$TIME $OURS --reconnect=60 $src '$uri'" \
  "on-1G=sync; \$TIME $OURS --reconnect=60 --checkpoint-bytes=1G $src '$uri'" \
  "off-flush=sync; \$TIME $OURS --flush $src '$uri'"

cmp "$src" "$dir/dst.img"
echo "destination identical to the source"
