#!/usr/bin/env bash
# copy-allocated.sh: --allocated leaves no holes in a file destination;
# the default keeps them.
source "${srcdir:-.}/copy-functions.sh"
set -e
make_tmpdir
size=$((16 * 1024 * 1024))
make_sparse_file "$tmp/src" $size
# A file system without holes makes this test meaningless.
allocated=$(( $(stat -c %b "$tmp/src") * 512 ))
if [ "$allocated" -ge $size ]; then
  echo "$0: SKIP: $tmp does not keep holes"
  exit 77
fi

$VG nbdcopy --allocated "$tmp/src" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"
test $(( $(stat -c %b "$tmp/dst") * 512 )) -ge $size
