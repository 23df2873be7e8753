#!/bin/bash -
# discard-chunks.sh: without extended headers (nbdkit) a range is sent
# in requests of 1 GiB, each starting where the last ended, as 1.24
# sends them; with extended headers (qemu-nbd 11 of Debian sid, when
# unpacked) in one request.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

serve m memory 2561M
mark m
nbdzero -y -o 512 "$uri"
nbddiscard -y -o 1G -l 1G "$uri"
nbddiscard -y -o 1K -l 2049M "$uri"
expect_commands m <<EOF2
Zero offset=0x200 count=0x40000000 trim=1 fua=0 fast=0
Zero offset=0x40000200 count=0x40000000 trim=1 fua=0 fast=0
Zero offset=0x80000200 count=0x200ffe00 trim=1 fua=0 fast=0
Flush
Trim offset=0x40000000 count=0x40000000 fua=0
Flush
Trim offset=0x400 count=0x40000000 fua=0
Trim offset=0x40000400 count=0x40000000 fua=0
Trim offset=0x80000400 count=0x100000 fua=0
Flush
EOF2

# Extended headers: sid's qemu-nbd speaks them.
D=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ ! -x "$D/qemu-nbd" ]; then
  echo "$0: extended headers not tested: no qemu-nbd 11 in $D" \
       "(scripts/peer-libnbd-1.24.sh unpacks it)"
  echo "$0: OK"
  exit 0
fi
truncate -s 5G "$tmp/disk"
printf 'data' | dd of="$tmp/disk" bs=1M seek=4500 conv=notrunc status=none
"$D/qemu-nbd" -f raw --discard=unmap -t -k "$tmp/q.sock" \
  --pid-file="$tmp/q.pid" "$tmp/disk" &
wait_for_file "$tmp/q.pid" qemu-nbd
cleanup_fn kill "$(cat "$tmp/q.pid")"
uri="nbd+unix:///?socket=$tmp/q.sock"
nbdinfo --has extended-headers "$uri"
fails 1 nbdzero -c "$uri"
grep -q '^image has data at offset ' "$tmp/out"

# One request each, for the whole range (our library's debug messages
# name the calls, one a request).
calls ()
{
  LIBNBD_DEBUG=1 "$@" "$uri" 2>&1 |
    sed -n 's/^libnbd: debug: [^:]*: \(nbd_zero\|nbd_trim\): enter: /\1 /p'
}
test "$(calls nbdzero -y -o 1K)" = "nbd_zero count=5368708096 offset=1024 flags=0x0"
test "$(calls nbddiscard -y)" = "nbd_trim count=5368709120 offset=0 flags=0x0"
nbdzero -c "$uri"
nbddiscard -c "$uri"
echo "$0: OK"
