#!/usr/bin/env bash
# copy-large-request.sh: 32M requests with no extents and no zero
# detection over a 1 GiB image whose only data is its first and last
# byte: every byte arrives.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit data --version
make_tmpdir
size=1073741824

nbdkit -U - data data='1 @1073741823 1' size=$size \
  --run "$VG nbdcopy --request-size=32M --no-extents -S 0 \"\$uri\" $tmp/dst"
test "$(stat -c %s "$tmp/dst")" -eq $size
test "$(od -An -tu1 -N1 "$tmp/dst" | tr -d ' ')" = 1
test "$(od -An -tu1 -j $((size - 1)) -N1 "$tmp/dst" | tr -d ' ')" = 1
# All in between is zero.
cmp -n $((size - 2)) -i 1:0 "$tmp/dst" /dev/zero
