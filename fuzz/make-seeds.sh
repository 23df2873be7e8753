#!/bin/bash -
# make-seeds.sh: record the seed corpus: what nbdkit and tests/fake-server
# send while the fuzzer's workload runs against them.  Run from the build
# tree's fuzz/ after make check (it needs record and ../tests/fake-server).
set -euo pipefail
out=${1:-corpus}
mkdir -p "$out"
run=../run

$run ./record "$out"/nbdkit-memory nbdkit -s memory 1M
$run ./record "$out"/nbdkit-data nbdkit -s data '1 @65536 2 @524288 3' size=1M
$run ./record "$out"/nbdkit-ro-sparse nbdkit -s -r sparse-random 1M
$run ./record "$out"/nbdkit-error nbdkit -s --filter=error memory 1M \
  error-rate=100% error=EIO error-pread-rate=0
for s in good short overlap out-of-range error-chunk block-status-bad \
         unknown-cookie no-go; do
  $run ./record "$out"/fake-$s ../tests/fake-server $s
done
ls -l "$out"
