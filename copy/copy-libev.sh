#!/usr/bin/env bash
# copy-libev.sh: examples/copy-libev copies a sparse file between two NBD
# servers, and nbdkit sparse-random onto itself (which fails any write
# that differs from its data).
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit memory --version
requires test -x ../examples/copy-libev
make_tmpdir
size=$((20 * 1024 * 1024 + 512))
make_sparse_file "$tmp/src" $size
start_nbdkit "$tmp/a.sock" file "$tmp/src"
start_nbdkit "$tmp/b.sock" memory size=$size

$VG ../examples/copy-libev "nbd+unix:///?socket=$tmp/a.sock" \
  "nbd+unix:///?socket=$tmp/b.sock"
$VG nbdcopy "nbd+unix:///?socket=$tmp/b.sock" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"

nbdkit -U - sparse-random size=1G seed=3 \
  --run "$VG ../examples/copy-libev \"\$uri\" \"\$uri\""
