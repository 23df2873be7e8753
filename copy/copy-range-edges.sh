#!/usr/bin/env bash
# copy-range-edges.sh: an image of two 128 MiB work ranges and an odd
# tail, with data on each side of each range boundary and in the last
# byte, copied by several workers with request sizes that do not
# divide it, at several --sparse sizes, onto a destination that is not
# zero: every byte arrives, holes included.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit data --version
requires nbdkit memory --version
make_tmpdir
range=$((128 * 1024 * 1024))
size=$((2 * range + 12345))

# The expected image, as a local file.
truncate -s $size "$tmp/expect"
put ()
{
  printf "$2" | dd of="$tmp/expect" bs=1 seek="$1" conv=notrunc status=none
}
put $((range - 1)) '\001\002'
put $((2 * range - 1)) '\003\004'
put $((range + 4000)) '\005\006\007'
put $((size - 1)) '\010'
data="@$((range - 1)) 1 2 @$((2 * range - 1)) 3 4 @$((range + 4000)) 5 6 7"
data="$data @$((size - 1)) 8"

start_nbdkit "$tmp/src.sock" data data="$data" size=$size
start_nbdkit "$tmp/dst.sock" memory size=$size
src="nbd+unix:///?socket=$tmp/src.sock"
dst="nbd+unix:///?socket=$tmp/dst.sock"

# Bytes that are not zero around each boundary and at both ends.
spoil="@0 (255)*65536 @$((range - 65536)) (255)*131072"
spoil="$spoil @$((2 * range - 65536)) (255)*$((65536 + 12345))"

for opts in "-T 3" "-T 3 --request-size=65536 -S 512" "-T 2 -S 0" \
            "--synchronous --request-size=8192" "-T 3 --no-extents"; do
  echo "== $opts"
  # Spoil the destination, then copy over it.
  nbdcopy -- [ nbdkit --exit-with-parent data data="$spoil" size=$size ] \
    "$dst"
  $VG nbdcopy $opts "$src" "$dst"
  $VG nbdcopy "$dst" "$tmp/out"
  cmp "$tmp/expect" "$tmp/out"
  $VG nbdcopy $opts "$src" "$tmp/out"
  cmp "$tmp/expect" "$tmp/out"
done
