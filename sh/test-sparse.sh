#!/usr/bin/env bash
# test-sparse.sh: a script on stdin ("-c -") reads nbdkit data with a
# hole in it through h.pread and h.block_status and checks the bytes and
# the extents.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit data --version
# 2 MiB: "hello" at 0, "world" at 1 MiB, zeros (unallocated) elsewhere.
start_nbdkit "$tmp/sock" data '"hello" @1048576 "world"' size=2M

cat > "$tmp/check.py" <<'EOF2'
M = 1024 * 1024
assert h.get_size() == 2 * M
assert h.pread(5, 0) == b"hello"
assert h.pread(5, M) == b"world"
assert h.pread(4096, M // 2) == bytes(4096)

# The extents, as (offset, length, flags), must cover the export in
# order, with data where the words are and a hole (zero) between.
extents = []
def got(ctx, off, entries, err):
    assert ctx == nbd.CONTEXT_BASE_ALLOCATION
    for i in range(0, len(entries), 2):
        end = extents[-1][0] + extents[-1][1] if extents else off
        extents.append((end, entries[i], entries[i + 1]))
offset = 0
while offset < h.get_size():
    h.block_status(h.get_size() - offset, offset, got)
    offset = extents[-1][0] + extents[-1][1]
assert offset == 2 * M, extents

def flags_at(where):
    return [f for o, n, f in extents if o <= where < o + n][0]
HOLE_ZERO = nbd.STATE_HOLE | nbd.STATE_ZERO
assert flags_at(0) == 0, extents
assert flags_at(M) == 0, extents
assert flags_at(M // 2) == HOLE_ZERO, extents
assert flags_at(2 * M - 1) == HOLE_ZERO, extents
print("extents ok")
EOF2
$VG nbdsh --base-allocation -u "$uri" -c - < "$tmp/check.py" > "$tmp/out"
expect "$tmp/out" "extents ok"
