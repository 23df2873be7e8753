#!/bin/bash -
# info-map-contexts.sh: --map=CONTEXT for qemu-nbd's allocation depth
# and dirty bitmap contexts, with their descriptions, and the contexts
# listed in the default output.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires python3 --version
requires qemu-img --version
requires qemu-io --version
requires qemu-nbd --version

# base: 1M of data at 0.  top (backed by base): 1M at 2M, then a
# bitmap, then 64K at 3M, which the bitmap records as dirty.
cd "$tmp"
qemu-img create -q -f qcow2 base.qcow2 4M
qemu-io -f qcow2 -c 'write -P 1 0 1M' base.qcow2 >/dev/null
qemu-img create -q -f qcow2 -b base.qcow2 -F qcow2 top.qcow2
qemu-io -f qcow2 -c 'write -P 2 2M 1M' top.qcow2 >/dev/null
qemu-img bitmap --add top.qcow2 b0
qemu-io -f qcow2 -c 'write -P 3 3M 64k' top.qcow2 >/dev/null

nbdinfo --map=qemu:allocation-depth -- \
  [ qemu-nbd -r -f qcow2 -A top.qcow2 ] > depth
cat > want <<'EOT'
         0     1048576    2  backing depth 2
   1048576     1048576    0  absent
   2097152     1114112    1  local
   3211264      983040    0  absent
EOT
diff -u want depth

nbdinfo --map=qemu:dirty-bitmap:b0 -- \
  [ qemu-nbd -r -f qcow2 -B b0 top.qcow2 ] > dirty
cat > want <<'EOT'
         0     3145728    0  clean
   3145728       65536    1  dirty
   3211264      983040    0  clean
EOT
diff -u want dirty

nbdinfo --map=qemu:dirty-bitmap:b0 --totals --json -- \
  [ qemu-nbd -r -f qcow2 -B b0 top.qcow2 ] > dirty.json
json_check dirty.json \
  '[(t["type"], t["size"], t["description"]) for t in j] ==
     [(0, 4128768, "clean"), (1, 65536, "dirty")]'

nbdinfo --no-content -- [ qemu-nbd -r -f qcow2 -A -B b0 top.qcow2 ] |
  sed -n '/contexts:/,/is_rotational/p' > contexts
cat > want <<'EOT'
	contexts:
		base:allocation
		qemu:allocation-depth
		qemu:dirty-bitmap:b0
	is_rotational: false
EOT
diff -u want contexts

# A bitmap the server does not have.
expect_status 1 nbdinfo --map=qemu:dirty-bitmap:nope -- \
  [ qemu-nbd -r -f qcow2 -B b0 top.qcow2 ]
echo "$0: OK"
