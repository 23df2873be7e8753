#!/usr/bin/env bash
# copy-flush-unsupported.sh: --flush onto a server that cannot flush
# copies the data, then fails saying the server does not support
# flush, as libnbd 1.22's nbdcopy does: the user asked for durability
# and did not get it.  Without --flush the same copy succeeds.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit eval --version
make_tmpdir
make_sparse_file "$tmp/src" $((1024 * 1024))
truncate -s 1M "$tmp/disk"

# The eval plugin advertises flush only when given a flush script.
server=(nbdkit -U - eval get_size='echo 1048576'
  pread='dd if='"$tmp/disk"' skip=$4 count=$3 iflag=skip_bytes,count_bytes status=none'
  pwrite='dd of='"$tmp/disk"' seek=$4 oflag=seek_bytes conv=notrunc status=none')
"${server[@]}" --run 'nbdinfo "$uri"' | grep -q 'can_flush: false'

for mode in "" --synchronous; do
  truncate -s 0 "$tmp/disk"
  truncate -s 1M "$tmp/disk"
  must_fail "$tmp/err" "${server[@]}" \
    --run "$VG nbdcopy $mode --flush $tmp/src \"\$uri\""
  grep -q "^nbdcopy: nbd+unix:.*: flush failed.*: nbd_flush: server does not support flush operations" "$tmp/err"
  # The failure comes after the copy, as in 1.22.
  cmp "$tmp/src" "$tmp/disk"

  "${server[@]}" --run "$VG nbdcopy $mode $tmp/src \"\$uri\""
  # --multi-writers flushes only where it can: it was not asked to.
  "${server[@]}" --run "$VG nbdcopy $mode --multi-writers $tmp/src \"\$uri\""
done
