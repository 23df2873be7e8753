#!/bin/bash -
# discard-zero.sh: nbdzero sends NBD_CMD_WRITE_ZEROES over the range
# asked and flushes, after which the range reads as zero and the rest as
# written; --fast-zero sets the fast zero flag, is refused where the
# server does not offer it and fails where the server fails it; a
# server without zeroes is refused.  Refusals send nothing and change
# nothing.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

nbdcopy -- [ nbdkit pattern size=4M ] "$tmp/pattern"

serve m memory 4M
fill m 4M
nbdzero -y -o 1M -l 1M "$uri" > "$tmp/out"
test ! -s "$tmp/out"
expect_commands m <<EOF2
Zero offset=0x100000 count=0x100000 trim=1 fua=0 fast=0
Flush
EOF2
nbdcopy "$uri" "$tmp/after"
cmp -n 1048576 "$tmp/pattern" "$tmp/after"
cmp -n 1048576 -i 1048576:0 "$tmp/after" /dev/zero
cmp -i 2097152 "$tmp/pattern" "$tmp/after"

# --fast-zero: the flag is sent.  With nbddiscard it implies -z.
mark m
nbdzero -y --fast-zero -l 1M "$uri"
nbddiscard -y --fast-zero -o 3M "$uri"
nbddiscard -y -v --fast-zero -o 3M "$uri" 2> /dev/null > "$tmp/out"
grep -qx -- '--fast implies --zero' "$tmp/out"
expect_commands m <<EOF2
Zero offset=0x0 count=0x100000 trim=1 fua=0 fast=1
Flush
Zero offset=0x300000 count=0x100000 trim=1 fua=0 fast=1
Flush
Zero offset=0x300000 count=0x100000 trim=1 fua=0 fast=1
Flush
EOF2
nbdcopy "$uri" "$tmp/after"
cmp -n 2097152 "$tmp/after" /dev/zero
cmp -n 1048576 -i 2097152:2097152 "$tmp/pattern" "$tmp/after"
cmp -n 1048576 -i 3145728:0 "$tmp/after" /dev/zero

# refused PROG MESSAGE ARGS...: PROG ARGS fails before asking or
# sending anything, with MESSAGE; the data is still as written.
refused ()
{
  local prog=$1 msg=$2
  shift 2
  fails 1 $prog "$@" "$uri"
  says "$tmp/err" "$prog: $msg"
  test ! -s "$tmp/out"
  expect_commands z < /dev/null
}

# No zeroes at all (nozero zeromode=none): refused, even with -y.
serve z --filter=nozero memory 4M zeromode=none
fill z 4M
refused nbdzero "this server does not support the zero operation" -y
refused nbdzero "this server does not support the zero operation"
refused nbddiscard "this server does not support the zero operation" -y -z
refused nbddiscard "this server does not support the zero operation" \
  -y --fast-zero
# ... but it can still be trimmed.
nbddiscard -y -l 1M "$uri"

# Zeroes but no fast zeroes (fastzeromode=none): --fast-zero refused,
# and a plain zero still works.
serve z --filter=nozero memory 4M zeromode=plugin fastzeromode=none
fill z 4M
refused nbdzero "fast zeroing is not supported by this server" -y --fast-zero
refused nbddiscard "fast zeroing is not supported by this server" --fast-zero
nbdzero -y -l 1M "$uri"
expect_commands z <<EOF2
Zero offset=0x0 count=0x100000 trim=1 fua=0 fast=0
Flush
EOF2

# Fast zeroes offered but each one failed (fastzeromode=slow): the
# request is sent, fails, and nbdzero fails with the server's error;
# nothing was zeroed.
serve z --filter=nozero memory 4M zeromode=plugin fastzeromode=slow
fill z 4M
fails 1 nbdzero -y --fast-zero "$uri"
grep -q '^nbdzero: nbd_zero: ' "$tmp/err"
expect_commands z <<EOF2
Zero offset=0x0 count=0x400000 trim=1 fua=0 fast=1
EOF2
nbdcopy "$uri" "$tmp/after"
cmp "$tmp/pattern" "$tmp/after"
echo "$0: OK"
