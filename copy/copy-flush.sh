#!/usr/bin/env bash
# copy-flush.sh: --flush sends a flush to the destination; without it
# none is sent.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit --filter=log null --version
make_tmpdir
make_sparse_file "$tmp/src" $((2 * 1024 * 1024))

nbdkit -U - --filter=log memory size=2M logfile="$tmp/log1" \
  --run "$VG nbdcopy $tmp/src \"\$uri\""
! grep -q 'Flush' "$tmp/log1"

nbdkit -U - --filter=log memory size=2M logfile="$tmp/log2" \
  --run "$VG nbdcopy --flush $tmp/src \"\$uri\""
grep -q 'Flush id=[0-9]* \.\.\.$' "$tmp/log2"
