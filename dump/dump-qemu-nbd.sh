#!/bin/bash -
# dump-qemu-nbd.sh: a qcow2 image served by qemu-nbd, run by socket
# activation between [ ]: data, written zeroes and unallocated space
# dump as the guest would see them.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires qemu-nbd --version
requires qemu-img --version
requires qemu-io --version

qemu-img create -q -f qcow2 "$tmp/disk.qcow2" 1G
qemu-io -f qcow2 -c 'write -P 0x41 512M 20' -c 'write -z 1M 64k' \
  -c 'write -P 0x7a 1023M 16' "$tmp/disk.qcow2" > /dev/null
cat > "$tmp/qcow2.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0020000000: 41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41 |AAAAAAAAAAAAAAAA|
0020000010: 41 41 41 41 00 00 00 00  00 00 00 00 00 00 00 00 |AAAA............|
0020000020: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
003ff00000: 7a 7a 7a 7a 7a 7a 7a 7a  7a 7a 7a 7a 7a 7a 7a 7a |zzzzzzzzzzzzzzzz|
003ff00010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
003ffffff0: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
EOX
expect qcow2 -- [ qemu-nbd -r -f qcow2 "$tmp/disk.qcow2" ]

cat > "$tmp/range.exp" <<'EOX'
0020000000: 41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41 |AAAAAAAAAAAAAAAA|
0020000010: 41 41 41 41 00 00 00 00  00 00 00 00 00 00 00 00 |AAAA............|
0020000020: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
EOX
expect range -o 512M -n 1M -- [ qemu-nbd -r -f qcow2 "$tmp/disk.qcow2" ]
echo "$0: OK"
