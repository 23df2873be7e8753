#!/bin/bash -
# info-oldstyle.sh: an oldstyle server has no options to negotiate: the
# handle is connected at once, and every mode still works.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

start_nbdkit old --oldstyle -r memory 1M
nbdinfo --no-content "$uri" > "$tmp/out"
head -2 "$tmp/out" > "$tmp/head"
printf '%s\n' 'protocol: oldstyle without TLS, using simple packets' \
  'export="":' | diff -u - "$tmp/head"
grep -qx '	export-size: 1048576 (1M)' "$tmp/out"
grep -qx '	is_read_only: true' "$tmp/out"
! grep -q 'contexts:' "$tmp/out"
nbdinfo "$uri" | grep -qx '	content: data'
[ "$(nbdinfo --size "$uri")" = 1048576 ]
expect_status 0 nbdinfo --is read-only "$uri"
expect_status 2 nbdinfo --has structured-reply "$uri"
# No option haggling means no list and no map.
expect_status 1 nbdinfo --list "$uri"
expect_status 1 nbdinfo --map "$uri"
echo "$0: OK"
