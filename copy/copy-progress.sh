#!/usr/bin/env bash
# copy-progress.sh: --progress=FD writes "N/100" lines, rising, from
# 0/100 (before any byte is copied, as libnbd 1.24) to 100/100; -p
# draws a bar on stderr.
source "${srcdir:-.}/copy-functions.sh"
set -e
make_tmpdir
make_sparse_file "$tmp/src" $((40 * 1024 * 1024))

for mode in "" --synchronous; do
  $VG nbdcopy $mode --progress=3 "$tmp/src" "$tmp/dst" 3>"$tmp/progress"
  cat "$tmp/progress"
  ! grep -qv '^[0-9]\{1,3\}/100$' "$tmp/progress"
  test "$(head -n1 "$tmp/progress")" = 0/100
  test "$(tail -n1 "$tmp/progress")" = 100/100
  sort -n -c "$tmp/progress"
done

$VG nbdcopy -p "$tmp/src" "$tmp/dst" 2>"$tmp/bar"
grep -q '100%' "$tmp/bar"
