#!/usr/bin/env bash
# test-tls.sh: an nbds+unix:// URI naming a PSK file (local files are
# allowed in nbdfuse's URIs), over two TLS connections; without TLS the
# server refuses and nothing is mounted.
source "${srcdir:-.}/fuse-functions.sh"
source "${srcdir:-.}/../tests/tls-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit pattern --version
make_tmpdir
tls_tmpdir
tls_make_psk
size=$((2 * 1024 * 1024))
start_nbdkit "$tmp/sock" --tls=require --tls-psk="$tls_dir/keys.psk" \
  pattern size=$size
mkdir "$tmp/mp"
python3 -c '
import struct, sys
size = int(sys.argv[1])
sys.stdout.buffer.write(b"".join(struct.pack(">Q", i)
                                 for i in range(0, size, 8)))' $size \
  > "$tmp/expected"

uri="nbds+unix://alice@/?socket=$tmp/sock"
start_nbdfuse "$tmp/mp" -v -C 2 "$tmp/mp" \
  "$uri&tls-psk-file=$tls_dir/keys.psk" 2> "$tmp/err"
cmp "$tmp/expected" "$tmp/mp/nbd"
stop_nbdfuse "$tmp/mp"
grep 'nbdfuse: connections=2' "$tmp/err"

status=0
$VG nbdfuse "$tmp/mp" "nbd+unix:///?socket=$tmp/sock" 2> "$tmp/err" ||
  status=$?
cat "$tmp/err"
test $status = 1
if is_mounted "$tmp/mp"; then
  echo "$0: mounted without TLS"
  exit 1
fi
