#!/bin/bash -
# make-seeds.sh: record the seed corpus: what nbdkit, tests/fake-server
# and tests/ext-server send while the fuzzer's workload runs against them.  Run from the build
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

# Extended headers: tests/ext-server, the client asking for them.
for s in good bs-count bs-zero bs-flags64 bs-narrow wrong-offset \
         unknown-cookie data-outside; do
  FUZZ_EXTENDED=1 $run ./record "$out"/ext-$s ../tests/ext-server $s
done

# Scripted replies (see tests/fake-script.c): chunk types the servers
# above rarely send, so the fuzzer starts from each of them.
H='u32:cmagic u16:1'
script ()
{
  $run ./record "$out/script-$1" ../tests/fake-server script "$2" "$3"
}
script hole read "$H u16:2 u64:cookie u32:12 u64:off u32:count"
script error-offset read "$H u16:0x8002 u64:cookie u32:14 u32:5 u16:0 u64:off"
script error read "$H u16:0x8001 u64:cookie u32:9 u32:5 u16:3 str:abc"
script unknown-type read "$H u16:100 u64:cookie u32:4 u32:0 good"
script bs-extents bs "$H u16:5 u64:cookie u32:20 u32:1 u32:512 u32:0 u32:65024 u32:3"
script list-error list "u64:omagic u32:opt u32:0x80000002 u32:2 str:no"
script info-name info "u64:omagic u32:opt u32:3 u32:5 u16:1 str:abc good"
ls -l "$out"
