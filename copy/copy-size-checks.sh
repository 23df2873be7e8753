#!/usr/bin/env bash
# copy-size-checks.sh: a destination smaller than the source, or
# read-only, is refused before anything is written.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit --filter=log memory --version
make_tmpdir
make_sparse_file "$tmp/src" $((2 * 1024 * 1024))

status=0
nbdkit -U - --filter=log memory size=1M logfile="$tmp/log" \
  --run "$VG nbdcopy $tmp/src \"\$uri\"" 2>"$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
grep -q 'destination size (1048576) is smaller than source size (2097152)' \
  "$tmp/err"
! grep -q 'Write' "$tmp/log"

status=0
nbdkit -U - -r memory size=2M \
  --run "$VG nbdcopy $tmp/src \"\$uri\"" 2>"$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
grep -q 'read-only' "$tmp/err"
