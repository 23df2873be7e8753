#!/usr/bin/env bash
# test-zero.sh: fallocate --zero-range and --punch-hole become
# NBD_CMD_WRITE_ZEROES (holes allowed only for a punched hole), written
# as zeroes when the server cannot zero; fsync and close after writing
# send NBD_CMD_FLUSH; plain preallocation is not supported.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires fallocate --version
requires nbdkit --version
requires nbdkit memory --version
requires nbdkit --filter=log null --version
requires nbdkit --filter=nozero null --version
make_tmpdir
mkdir "$tmp/mp"
size=1048576
head -c $size /dev/urandom > "$tmp/data"

# expect_zeroes OFFSET LENGTH: the file and $tmp/data (zeroed there
# too) agree.
expect_zeroes ()
{
  dd if=/dev/zero of="$tmp/data" bs=1 seek=$1 count=$2 conv=notrunc \
     status=none
  cmp "$tmp/data" "$tmp/mp/nbd"
}

# run_checks LOG ZEROMODE
run_checks ()
{
  local log=$1 sock="$tmp/$2.sock"
  start_nbdkit "$sock" --filter=log --filter=nozero memory $size \
    logfile="$log" zeromode=$2
  start_nbdfuse "$tmp/mp" -C 1 "$tmp/mp" --unix "$sock"
  dd if="$tmp/data" of="$tmp/mp/nbd" bs=64k conv=notrunc,fsync status=none
  grep -q 'Flush id=' "$log"
  fallocate --zero-range --offset 512 --length 1536 "$tmp/mp/nbd"
  expect_zeroes 512 1536
  fallocate --punch-hole --offset 65536 --length 131072 "$tmp/mp/nbd"
  expect_zeroes 65536 131072
  # A range past the end: only the part inside the file.
  fallocate --punch-hole --offset $((size - 4096)) --length 1000000 \
    "$tmp/mp/nbd"
  expect_zeroes $((size - 4096)) 4096
  if fallocate --offset 0 --length 4096 "$tmp/mp/nbd" 2> "$tmp/err"; then
    echo "$0: preallocation succeeded"
    exit 1
  fi
  grep 'Operation not supported' "$tmp/err"
  stop_nbdfuse "$tmp/mp"
}

run_checks "$tmp/zero.log" plugin
cat "$tmp/zero.log"
grep 'Zero .*offset=0x200 count=0x600 trim=0' "$tmp/zero.log"
grep 'Zero .*offset=0x10000 count=0x20000 trim=1' "$tmp/zero.log"
grep 'Zero .*offset=0xff000 count=0x1000 trim=1' "$tmp/zero.log"
if grep Trim "$tmp/zero.log"; then
  echo "$0: a trim was sent"
  exit 1
fi

# The server cannot zero: zeroes are written.
run_checks "$tmp/nozero.log" none
cat "$tmp/nozero.log"
if grep 'Zero ' "$tmp/nozero.log"; then
  echo "$0: NBD_CMD_WRITE_ZEROES sent to a server without it"
  exit 1
fi
grep 'Write .*offset=0x200 count=0x600' "$tmp/nozero.log"
