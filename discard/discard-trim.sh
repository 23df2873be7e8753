#!/bin/bash -
# discard-trim.sh: nbddiscard trims the range asked (all the export by
# default) in one request and flushes; the map shows holes there, and
# every byte outside it reads as written.  Without trim (a read-only
# export, a plugin without it), it refuses before asking or sending
# anything; without flush, none is sent.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

nbdcopy -- [ nbdkit pattern size=8M ] "$tmp/pattern"

# A range in the middle.
serve m memory 8M
fill m 8M
nbddiscard -y -o 1M -l 2M "$uri" > "$tmp/out"
test ! -s "$tmp/out"
expect_commands m <<EOF2
Trim offset=0x100000 count=0x200000 fua=0
Flush
EOF2
expect_map "$uri" <<EOF2
         0     1048576    0  data
   1048576     2097152    3  hole,zero
   3145728     5242880    0  data
EOF2
nbdcopy "$uri" "$tmp/after"
cmp -n 1048576 "$tmp/pattern" "$tmp/after"
cmp -i 3145728 "$tmp/pattern" "$tmp/after"

# By default, everything.
mark m
nbddiscard -y "$uri"
expect_commands m <<EOF2
Trim offset=0x0 count=0x800000 fua=0
Flush
EOF2
expect_map "$uri" <<EOF2
         0     8388608    3  hole,zero
EOF2

# -z: zeroes instead (nbdzero's request), and the data reads as zero.
fill m 8M
nbddiscard -y -z -o 4M "$uri"
expect_commands m <<EOF2
Zero offset=0x400000 count=0x400000 trim=1 fua=0 fast=0
Flush
EOF2
nbdcopy "$uri" "$tmp/after"
cmp -n 4194304 "$tmp/pattern" "$tmp/after"
cmp -n 4194304 -i 4194304:0 "$tmp/after" /dev/zero

# A writable server without trim or flush (nbdkit's eval plugin
# with neither): nbddiscard refuses it, nbdzero zeroes without a flush.
serve nt eval get_size='echo 1048576' can_write='exit 0' \
  pread='dd if=/dev/zero count=$3 iflag=count_bytes status=none' \
  pwrite='cat > /dev/null' can_trim='exit 3' can_flush='exit 3' \
  can_zero='exit 0' zero='exit 0'
fails 1 nbddiscard -y "$uri"
says "$tmp/err" \
  "nbddiscard: this server does not support the trim/discard operation"
test ! -s "$tmp/out"
nbdzero -y "$uri"
expect_commands nt <<EOF2
Zero offset=0x0 count=0x100000 trim=1 fua=0 fast=0
EOF2

# A read-only export cannot be trimmed: refused, nothing asked or sent.
serve ro -r memory 1M
fails 1 nbddiscard -y "$uri"
says "$tmp/err" \
  "nbddiscard: this server does not support the trim/discard operation"
test ! -s "$tmp/out"
fails 1 nbddiscard "$uri"
test ! -s "$tmp/out"
expect_commands ro < /dev/null
echo "$0: OK"
