#!/usr/bin/env bash
# copy-file-to-file.sh: a sparse file of unaligned size copied to a
# file, with several threads and with one, is identical.
source "${srcdir:-.}/copy-functions.sh"
set -e
make_tmpdir
make_sparse_file "$tmp/src" $((20 * 1024 * 1024 + 1234))

$VG nbdcopy "$tmp/src" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"

$VG nbdcopy -T 1 --request-size=64k "$tmp/src" "$tmp/dst1"
cmp "$tmp/src" "$tmp/dst1"

# The copy keeps the holes: far less is allocated than the size.
allocated=$(( $(stat -c %b "$tmp/dst") * 512 ))
test "$allocated" -lt $((10 * 1024 * 1024))

# No zero detection: the data extents go through copy_file_range.
$VG nbdcopy -S 0 "$tmp/src" "$tmp/dst2"
cmp "$tmp/src" "$tmp/dst2"
