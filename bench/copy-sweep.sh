#!/usr/bin/env bash
# copy-sweep.sh: benchmark 1 of nbdcopy: our nbdcopy with request sizes
# 2^15..2^23 on nbdkit sparse-random 16G copied onto itself, in
# interleaved rounds; prints each size's median and how far the default
# (256 KiB) is from the best.  About 2 minutes.
set -e
source "$(dirname "$0")/copy-env.sh"
SIZE="${SIZE:-16G}"
sr="nbdkit -U - sparse-random size=$SIZE seed=1 --run"
data="${DATA_PREFIX:-/tmp/copy-bench}-sweep.dat"

cmds=("default=$sr '\$TIME $OURS \$uri \$uri'")
for p in 15 16 17 18 19 20 21 22 23; do
  cmds+=("2^$p=$sr '\$TIME $OURS --request-size=$((1 << p)) \$uri \$uri'")
done
$RUN --rounds "${ROUNDS:-3}" --data "$data" "${cmds[@]}"

# The default against the best of the sweep (ratios are to "default").
awk -F'\t' 'NR > 1 && (best == "" || $3 < best) { best = $3; name = $1 }
  END { printf "best: %s; the default takes %.1f%% longer than it\n",
        name, (1 / best - 1) * 100 }' "$data"
