#!/usr/bin/env bash
# test-threaded-reads-and-writes.sh: a short run of the example, four
# threads each with a handle of its own, retiring commands both ways
# (peek and callback): every request asked for is done, none fails.
source "${srcdir:-.}/../tests/functions.sh"
set -e
requires nbdkit memory --version

for mode in "" -C; do
  out=$(nbdkit -U - memory 64M \
          --run "$VG threaded-reads-and-writes -t 4 -n 400 -l 65536 \
                 $mode \$unixsocket")
  echo "$out"
  grep -qx 'threads: 4' <<<"$out"
  grep -qx 'requests: 400' <<<"$out"
done

# -w 0 is reads only and -w 100 writes only (bench/matrix.sh uses both).
out=$(nbdkit -U - memory 64M \
        --run "$VG threaded-reads-and-writes -t 1 -n 50 -s 65536 -w 0 \
               \$unixsocket")
grep -qx 'bytes written: 0' <<<"$out"
grep -qx 'bytes read: 3276800' <<<"$out"
out=$(nbdkit -U - memory 64M \
        --run "$VG threaded-reads-and-writes -t 1 -n 50 -s 65536 -w 100 \
               \$unixsocket")
grep -qx 'bytes read: 0' <<<"$out"
grep -qx 'bytes written: 3276800' <<<"$out"
