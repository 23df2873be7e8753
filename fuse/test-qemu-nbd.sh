#!/usr/bin/env bash
# test-qemu-nbd.sh: a qcow2 image served by qemu-nbd (socket activation)
# is seen as raw; writes through the file land in the image.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires qemu-nbd --version
requires qemu-img --version
make_tmpdir
size=$((8 * 1024 * 1024))
qemu-img create -q -f qcow2 "$tmp/disk.qcow2" $size
head -c $size /dev/urandom > "$tmp/data"
mkdir "$tmp/mp"

start_nbdfuse "$tmp/mp" "$tmp/mp/disk.raw" \
  [ qemu-nbd -f qcow2 "$tmp/disk.qcow2" ]
test "$(stat -c '%s' "$tmp/mp/disk.raw")" = $size
cmp <(head -c $size /dev/zero) "$tmp/mp/disk.raw"
dd if="$tmp/data" of="$tmp/mp/disk.raw" bs=1M conv=notrunc,fsync \
   status=none
fallocate --punch-hole --offset 1048576 --length 1048576 \
  "$tmp/mp/disk.raw"
dd if=/dev/zero of="$tmp/data" bs=1M seek=1 count=1 conv=notrunc \
   status=none
cmp "$tmp/data" "$tmp/mp/disk.raw"
stop_nbdfuse "$tmp/mp"

qemu-img convert -f qcow2 -O raw "$tmp/disk.qcow2" "$tmp/out.raw"
cmp "$tmp/data" "$tmp/out.raw"
