#!/bin/bash -
# misbehave-bs-twice-copy-nbd.sh: nbdcopy from a server that describes
# the same bytes twice in one block status reply (see
# bs-twice-copy-common.sh) to nbdkit memory fails with a clear error
# with every option that uses extents; without extents it copies right.
set -euo pipefail
source "${srcdir:-.}/bs-twice-copy-common.sh"

requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory 1M

for opts in "" --allocated "--threads=4" "-S 0" --destination-is-zero \
            --blkhash; do
  # shellcheck disable=SC2086
  refused bs-twice "$uri" $opts
done
refused bs-twice-reversed "$uri" --allocated

$VG nbdcopy --no-extents -- [ fake-server bs-twice ] "$uri"
fetch "$uri" "$tmp/got"
cmp "$tmp/ref" "$tmp/got"
