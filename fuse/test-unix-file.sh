#!/usr/bin/env bash
# test-unix-file.sh: nbdfuse --unix SOCKET onto nbdkit's file plugin:
# writes through the mount land in the server's file, at the right
# offsets, and reads see the file.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit file --version
make_tmpdir
size=$((4 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/disk"
cp "$tmp/disk" "$tmp/expected"
start_nbdkit "$tmp/sock" file "$tmp/disk"
mkdir "$tmp/mp"

start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/sock"
cmp "$tmp/disk" "$tmp/mp/nbd"

# put FILE OFFSET LENGTH: the same random bytes into FILE at OFFSET.
head -c 300000 /dev/urandom > "$tmp/piece"
put ()
{
  dd if="$tmp/piece" of="$1" bs=4096 count="$3" iflag=count_bytes \
     seek="$2" oflag=seek_bytes conv=notrunc,nocreat status=none
}
for f in "$tmp/mp/nbd" "$tmp/expected"; do
  put "$f" 0 4096
  put "$f" 12345 300000
  put "$f" $((size - 777)) 777
done
# conv=fsync: the write is flushed to the server before dd returns.
dd if="$tmp/piece" of="$tmp/mp/nbd" bs=1000 count=1 seek=2000 \
   conv=notrunc,nocreat,fsync status=none
dd if="$tmp/piece" of="$tmp/expected" bs=1000 count=1 seek=2000 \
   conv=notrunc,nocreat status=none

cmp "$tmp/expected" "$tmp/mp/nbd"
stop_nbdfuse "$tmp/mp"
# After unmounting, the server's file holds every write.
cmp "$tmp/expected" "$tmp/disk"
