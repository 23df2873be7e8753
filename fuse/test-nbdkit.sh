#!/usr/bin/env bash
# test-nbdkit.sh: nbdfuse MOUNTPOINT/FILENAME [ nbdkit memory ]: the file
# has the export's name, size and mode; what is written reads back.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit memory --version
make_tmpdir
size=$((10 * 1024 * 1024 + 512))
mkdir "$tmp/mp"

start_nbdfuse "$tmp/mp" "$tmp/mp/disk.raw" \
  [ nbdkit --exit-with-parent memory size=$size ]

test "$(ls -A "$tmp/mp")" = "disk.raw"
test "$(stat -c '%s %F %a' "$tmp/mp/disk.raw")" = "$size regular file 666"
test "$(stat -c '%F' "$tmp/mp")" = "directory"
if stat "$tmp/mp/other" 2>/dev/null; then
  echo "$0: a second file exists"
  exit 1
fi

# An odd block size, and a last block that ends at the end of the file.
head -c $size /dev/urandom > "$tmp/data"
dd if="$tmp/data" of="$tmp/mp/disk.raw" bs=65519 conv=notrunc,nocreat \
   status=none
cmp "$tmp/data" "$tmp/mp/disk.raw"

# Unaligned reads at the end, and a read across the end is short.
cmp <(tail -c 1000 "$tmp/data") \
    <(dd if="$tmp/mp/disk.raw" bs=1 skip=$((size - 1000)) status=none)
test "$(dd if="$tmp/mp/disk.raw" bs=4096 skip=$((size / 4096)) \
          status=none | wc -c)" = $((size % 4096))

# The file cannot grow: writing at its end fails with ENOSPC.
if printf x | dd of="$tmp/mp/disk.raw" bs=1 seek=$size conv=notrunc \
                 2> "$tmp/err"; then
  echo "$0: a write past the end succeeded"
  exit 1
fi
grep 'No space left on device' "$tmp/err"

stop_nbdfuse "$tmp/mp"
if is_mounted "$tmp/mp"; then
  echo "$0: still mounted"
  exit 1
fi

# A pidfile that cannot be written: the mount is undone, exit status 1.
status=0
$VG nbdfuse -P "$tmp/nonexistent/pid" "$tmp/mp" \
  [ nbdkit --exit-with-parent memory size=1M ] 2> "$tmp/err" || status=$?
cat "$tmp/err"
test $status = 1
grep "nbdfuse: $tmp/nonexistent/pid: No such file or directory" "$tmp/err"
if is_mounted "$tmp/mp"; then
  echo "$0: still mounted after failing to write the pidfile"
  exit 1
fi
