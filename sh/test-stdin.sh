#!/usr/bin/env bash
# test-stdin.sh: "-c -" reads a whole script from stdin and runs it in
# its place among the other -c and -u options.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

$VG nbdsh -u "$uri" -c 'x = 5' -c - -c 'print(x, y)' > "$tmp/out" <<'EOF2'
# A multi-line script using h and the x set before it.
y = 0
for i in range(x):
    h.pwrite(bytes([i + 1]) * 512, i * 512)
    y += h.pread(1, i * 512)[0]
EOF2
expect "$tmp/out" "5 15"

printf 'print("from stdin")\n' | $VG nbdsh --command - > "$tmp/out"
expect "$tmp/out" "from stdin"
