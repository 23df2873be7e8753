#!/usr/bin/env bash
# copy-multi-writers.sh: a destination without multi-conn gets one
# connection, unless --multi-writers, which writes over several and
# flushes each of them.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit --filter=multi-conn --filter=log null --version
make_tmpdir
size=$((300 * 1024 * 1024))
truncate -s $size "$tmp/src"
for i in 0 1 2; do
  put_random "$tmp/src" $((i * 128 * 1024 * 1024 + 8192)) 100000
done
start_nbdkit "$tmp/sock" --filter=log --filter=multi-conn memory \
  size=$size multi-conn-mode=disable logfile="$tmp/log"
uri="nbd+unix:///?socket=$tmp/sock"

$VG nbdcopy -v -C 3 -T 3 "$tmp/src" "$uri" 2>"$tmp/err1"
grep -q 'connections=1 ' "$tmp/err1"

$VG nbdcopy -v -C 3 -T 3 --multi-writers "$tmp/src" "$uri" 2>"$tmp/err2"
grep -q 'connections=3 ' "$tmp/err2"
$VG nbdcopy "$uri" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"
# Three connections of the second copy each sent a flush.
test "$(grep -c 'Flush id=[0-9]* \.\.\.$' "$tmp/log")" -eq 3
