#!/bin/bash -
# discard-check.sh: --check changes nothing and sends only block status
# requests; status 0 when every extent of the range is a hole (nbdzero,
# or -z: reads as zero), else status 1 and the offset of the first
# extent that is not; -q prints nothing, -v says the result.  A server
# without base:allocation is refused.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"
requires nbdkit eval --version

# Extents the test chooses (nbdkit's eval plugin): data, zero (not a
# hole), a hole that reads as zero, a hole that does not, data.
serve x eval get_size='echo 5242880' \
  pread='dd if=/dev/zero count=$3 iflag=count_bytes status=none' \
  can_extents='exit 0' extents='
    echo 0 1048576 ""
    echo 1048576 1048576 zero
    echo 2097152 1048576 hole,zero
    echo 3145728 1048576 hole
    echo 4194304 1048576 ""'

# check EXPECTED-STATUS EXPECTED-OUTPUT PROG ARGS...
check ()
{
  local want=$1 output=$2
  shift 2
  fails "$want" "$@" "$uri"
  says "$tmp/out" "$output"
  test ! -s "$tmp/err"
}
check 1 "image has data at offset 0" nbddiscard -c
check 1 "image has data at offset 0" nbdzero -c
check 1 "image has data at offset 1048576" nbddiscard -c -o 1M
check 0 "" nbdzero -c -o 1M -l 2M
check 1 "image has data at offset 3145728" nbdzero -c -o 1M
check 0 "" nbddiscard -c -o 2M -l 2M
check 1 "image has data at offset 3145728" nbddiscard -c -z -o 2M -l 2M
check 1 "image has data at offset 4194304" nbddiscard -c -o 2M
# Inside an extent, the offset asked for is where the data starts.
check 1 "image has data at offset 1536" nbddiscard -c -o 1536 -l 1
check 1 "image has data at offset 4718592" nbdzero -c -o 4608K
check 1 "" nbdzero -c -q -o 3M
fails 0 nbdzero -c -v -o 1M -l 2M "$uri"
test "$(tail -1 "$tmp/out")" = "image is already zero"
grep -qx "block status = True" "$tmp/out"
grep -q '^libnbd: debug: ' "$tmp/err"
fails 0 nbddiscard -c -v -o 2M -l 2M "$uri"
test "$(tail -1 "$tmp/out")" = "image is already sparse"
# --fast-zero does not matter to --check, even where not offered.
check 0 "" nbddiscard -c --fast-zero -o 1M -l 2M
# Only block status was sent.
commands x | grep -v '^Extents ' && exit 1

# Without extended headers, block status asks 1 GiB at most at a time.
serve big memory 3G
mark big
check 0 "" nbdzero -c
commands big | sed 's/ req_one=.*//' > "$tmp/extents"
grep -v '^Extents ' "$tmp/extents" && exit 1
test "$(head -1 "$tmp/extents")" = "Extents offset=0x0 count=0x40000000"
while read -r _ offset count; do
  test $((${count#count=})) -le $((1 << 30))
done < "$tmp/extents"
test "$(tail -1 "$tmp/extents")" = "Extents offset=0x80000000 count=0x40000000"

# Data found is reported before any other.
fill big 1M
check 1 "image has data at offset 0" nbddiscard -c

# No base:allocation (no structured replies): refused.
start_nbdkit "$tmp/nosr.sock" --no-sr memory 1M
fails 1 nbdzero -c "$uri"
says "$tmp/err" "nbdzero: this server does not support the block status operation"
test ! -s "$tmp/out"
echo "$0: OK"
