#!/usr/bin/env bash
# copy-compare.sh: benchmarks 2, 3 and 6 of nbdcopy: ours vs Debian's
# nbdcopy vs qemu-img convert (default and -m 16 -W), copying nbdkit
# sparse-random 16G onto itself (the plugin fails any write whose data
# differs from what it would read, so a successful copy is verified),
# then the same with 1 ms added to every read and write (delay filter,
# 4G).  Peak RSS is the copy tool's own.  About 3 minutes.
set -e
source "$(dirname "$0")/copy-env.sh"
SIZE="${SIZE:-16G}"
DSIZE="${DSIZE:-4G}"

sr="nbdkit -U - sparse-random size=$SIZE seed=1 --run"
q='qemu-img convert -n -f raw -O raw'
echo "== sparse-random $SIZE, nbd to nbd"
$RUN --rounds "$ROUNDS" --data "${DATA_PREFIX:-/tmp/copy-bench}-compare.dat" \
  "ours=$sr '\$TIME $OURS \$uri \$uri'" \
  "debian=$sr '\$TIME $DEBIAN \$uri \$uri'" \
  "qemu-img=$sr '\$TIME $q \$uri \$uri'" \
  "qemu-img-m16-W=$sr '\$TIME $q -m 16 -W \$uri \$uri'"

sd="nbdkit -U - --filter=delay sparse-random size=$DSIZE seed=1 rdelay=1ms wdelay=1ms --run"
echo "== sparse-random $DSIZE with 1 ms read/write delay, nbd to nbd"
$RUN --rounds 3 --data "${DATA_PREFIX:-/tmp/copy-bench}-delay.dat" \
  "ours=$sd '\$TIME $OURS \$uri \$uri'" \
  "debian=$sd '\$TIME $DEBIAN \$uri \$uri'" \
  "qemu-img-m16-W=$sd '\$TIME $q -m 16 -W \$uri \$uri'"
