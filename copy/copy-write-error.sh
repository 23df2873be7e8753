#!/usr/bin/env bash
# copy-write-error.sh: a destination whose writes fail (nbdkit error
# filter) makes nbdcopy exit non-zero, naming the destination and an
# offset, in both copy loops.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit --filter=error memory --version
make_tmpdir
make_sparse_file "$tmp/src" $((4 * 1024 * 1024))

for mode in "" --synchronous; do
  must_fail_run "$tmp/err" -U - --filter=error memory size=4M \
    error-pwrite=EIO error-pwrite-rate=100% \
    -- "$VG nbdcopy $mode $tmp/src \"\$uri\""
  grep -q \
    '^nbdcopy: nbd+unix:.*: write failed at offset [0-9]*: .*Input/output' \
    "$tmp/err"
done
