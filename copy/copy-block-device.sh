#!/usr/bin/env bash
# copy-block-device.sh: a loop device as destination and as source.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires losetup --version
make_tmpdir
size=$((6 * 1024 * 1024))
make_sparse_file "$tmp/src" $size
truncate -s $size "$tmp/disk"
if ! dev=$(losetup -f --show "$tmp/disk" 2>/dev/null); then
  echo "$0: SKIP: cannot attach a loop device (needs root)"
  exit 77
fi
cleanup_fn losetup -d "$dev"

$VG nbdcopy "$tmp/src" "$dev"
$VG nbdcopy "$dev" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"

# A source bigger than the device is refused.
truncate -s $((size + 512)) "$tmp/big"
! $VG nbdcopy "$tmp/big" "$dev" 2>"$tmp/err"
grep -q 'is smaller than source size' "$tmp/err"
