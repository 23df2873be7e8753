#!/usr/bin/env bash
# test-verbose.sh: -v and --verbose turn on libnbd debugging for h,
# whose messages carry the handle name "nbdsh".
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M
unset LIBNBD_DEBUG

$VG nbdsh -c 'print(h.get_debug())' > "$tmp/out"
expect "$tmp/out" "False"
for opt in -v --verbose; do
  $VG nbdsh $opt -c 'print(h.get_debug())' > "$tmp/out"
  expect "$tmp/out" "True"
done

$VG nbdsh -u "$uri" -c 'print(h.get_size())' > "$tmp/out" 2> "$tmp/err"
test ! -s "$tmp/err"
$VG nbdsh -v -u "$uri" -c 'print(h.get_size())' > "$tmp/out" 2> "$tmp/err"
expect "$tmp/out" "1048576"
grep -q '^libnbd: debug: nbdsh: ' "$tmp/err"
