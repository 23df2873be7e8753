#!/usr/bin/env bash
# io-sync-vs-qemu.sh: our writes through qemu-nbd land in the file.
source ${srcdir:-.}/functions.sh
set -e
set -x

requires qemu-nbd --version
requires cmp --version
requires od --version

client=${builddir:-.}/io-qemu-client
tmp=$(mktemp -d /tmp/io-sync-vs-qemu.XXXXXX)
cleanup_fn rm -rf "$tmp"
sock=$tmp/sock
img=$tmp/disk.img
truncate -s 10M "$img"

qemu-nbd -t -k "$sock" -f raw --pid-file="$tmp/pid" "$img" &
qemu_pid=$!
cleanup_fn kill $qemu_pid
# qemu-nbd writes its pid file once it listens.
wait_for_file "$tmp/pid" qemu-nbd

$VG "$client" "$sock"

# The file holds what the client wrote.
test "$(od -An -c -N7 "$img" | tr -d ' ')" = "NBDTEST"
head -c 1048576 /dev/zero | tr '\0' '\245' > "$tmp/a5"
dd if="$img" of="$tmp/got" bs=1M iflag=skip_bytes,count_bytes \
   skip=$((4*1048576 + 3)) count=1048576 status=none
cmp "$tmp/a5" "$tmp/got"
head -c 65536 /dev/zero > "$tmp/zero"
dd if="$img" of="$tmp/got" bs=1M iflag=skip_bytes,count_bytes \
   skip=$((8*1048576)) count=65536 status=none
cmp "$tmp/zero" "$tmp/got"
# Untouched bytes on either side stay zero.
test "$(od -An -tx1 -j $((4*1048576 + 2)) -N1 "$img" | tr -d ' ')" = "00"
test "$(od -An -tx1 -j $((5*1048576 + 3)) -N1 "$img" | tr -d ' ')" = "00"
test "$(stat -c %s "$img")" = 10485760
