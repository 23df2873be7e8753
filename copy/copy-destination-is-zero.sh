#!/usr/bin/env bash
# copy-destination-is-zero.sh: with --destination-is-zero the holes of
# the source are not written (old data there survives); without it they
# are zeroed.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit memory --version
make_tmpdir
size=$((8 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/junk"
make_sparse_file "$tmp/src" $size
start_nbdkit "$tmp/sock" memory size=$size
uri="nbd+unix:///?socket=$tmp/sock"

$VG nbdcopy "$tmp/junk" "$uri"
$VG nbdcopy --destination-is-zero "$tmp/src" "$uri"
$VG nbdcopy "$uri" "$tmp/out"
# Byte 100000 is in a hole of the source: it still holds the junk.
test "$(cmp -s -n 4096 -i 100000:100000 "$tmp/out" "$tmp/junk"; echo $?)" = 0
! cmp -s "$tmp/out" "$tmp/src"

$VG nbdcopy "$tmp/src" "$uri"
$VG nbdcopy "$uri" "$tmp/out"
cmp "$tmp/out" "$tmp/src"
