#!/usr/bin/env bash
# copy-subprocess.sh: "[ server args ]" endpoints started with socket
# activation, as source and as destination.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
make_tmpdir
make_sparse_file "$tmp/src" $((3 * 1024 * 1024 + 5))
truncate -s $((3 * 1024 * 1024 + 5)) "$tmp/mid"

$VG nbdcopy -- [ nbdkit --exit-with-parent file "$tmp/src" ] \
  [ nbdkit --exit-with-parent file "$tmp/mid" ]
cmp "$tmp/src" "$tmp/mid"

$VG nbdcopy -- [ nbdkit --exit-with-parent -r file "$tmp/mid" ] "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"
