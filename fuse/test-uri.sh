#!/usr/bin/env bash
# test-uri.sh: nbdfuse MOUNTPOINT URI, with several connections to a
# server that allows multi-conn: reads give the export's bytes.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit pattern --version
make_tmpdir
size=$((3 * 1024 * 1024 + 100))
start_nbdkit "$tmp/sock" pattern size=$size
mkdir "$tmp/mp"

# What nbdkit's pattern plugin serves: the offset of each 8-byte word,
# big-endian.
python3 -c '
import struct, sys
size = int(sys.argv[1])
data = b"".join(struct.pack(">Q", i) for i in range(0, size + 8, 8))
sys.stdout.buffer.write(data[:size])' $size > "$tmp/expected"

start_nbdfuse "$tmp/mp" -v -C 3 "$tmp/mp" "nbd+unix:///?socket=$tmp/sock" \
  2> "$tmp/err"
cmp "$tmp/expected" "$tmp/mp/nbd"
grep 'nbdfuse: connections=3' "$tmp/err"
stop_nbdfuse "$tmp/mp"

# A subprocess can be connected to once only, whatever -C says.  -o
# options reach FUSE, comma-separated or not.
start_nbdfuse "$tmp/mp" -v -C 3 -o uid=4321,gid=4322 -o ro "$tmp/mp" \
  [ nbdkit --exit-with-parent pattern size=$size ] 2> "$tmp/err"
cmp "$tmp/expected" "$tmp/mp/nbd"
grep 'nbdfuse: connections=1' "$tmp/err"
test "$(stat -c '%u %g' "$tmp/mp/nbd")" = "4321 4322"
awk -v d="$(realpath "$tmp/mp")" '$2 == d && $4 ~ /^ro,/ { ok = 1 }
  END { exit !ok }' /proc/mounts
stop_nbdfuse "$tmp/mp"
