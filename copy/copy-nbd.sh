#!/usr/bin/env bash
# copy-nbd.sh: file -> NBD -> NBD -> file through long-running servers,
# with multi-conn, is identical; the NBD-to-NBD step also in
# --synchronous mode.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit memory --version
make_tmpdir
size=$((24 * 1024 * 1024 + 512 + 3))
make_sparse_file "$tmp/src" $size
start_nbdkit "$tmp/a.sock" memory size=$size
start_nbdkit "$tmp/b.sock" memory size=$size
a="nbd+unix:///?socket=$tmp/a.sock"
b="nbd+unix:///?socket=$tmp/b.sock"

$VG nbdcopy "$tmp/src" "$a"
$VG nbdcopy -C 4 -T 4 --request-size=1M "$a" "$b"
$VG nbdcopy "$b" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"

$VG nbdcopy --synchronous "$tmp/src" "$b"
$VG nbdcopy --synchronous "$b" "$tmp/dst2"
cmp "$tmp/src" "$tmp/dst2"
