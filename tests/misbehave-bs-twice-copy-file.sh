#!/bin/bash -
# misbehave-bs-twice-copy-file.sh: nbdcopy from a server that
# describes the same bytes twice in one block status reply (see
# bs-twice-copy-common.sh) to a file, or null:, fails with a clear
# error with every option that uses extents.
set -euo pipefail
source "${srcdir:-.}/bs-twice-copy-common.sh"

for opts in "" --allocated --synchronous "-C 4" "--request-size=65536" \
            "--sparse=65536" "--blkhash"; do
  rm -f "$tmp/out"
  # shellcheck disable=SC2086
  refused bs-twice "$tmp/out" $opts
done
truncate -s 1M "$tmp/out"
refused bs-twice "$tmp/out" --destination-is-zero
refused bs-twice null: --blkhash
# The whole request first, then its first half: described twice too.
refused bs-twice-reversed "$tmp/out"
