#!/usr/bin/env bash
# copy-verbose.sh: -v begins with libnbd 1.22's lines, which scripts
# grep, for each kind of end.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit memory --version
make_tmpdir

$VG nbdcopy -v -- [ nbdkit memory size=1M ] null: 2> "$tmp/err"
cat "$tmp/err"
grep -v '^libnbd: debug' "$tmp/err" | head -n 5 > "$tmp/lines"
test "$(cat "$tmp/lines")" = 'nbdcopy: src: nbd_ops "nbdkit"
nbdcopy: src: size=1048576 (1M), preferred block size=4096
nbdcopy: dst: null_ops "null:"
nbdcopy: dst: size=9223372036854775807 (9223372036854775807), preferred block size=4096
nbdcopy: connections=1 requests=64 threads=1 synchronous=false'

truncate -s 3000 "$tmp/file"
$VG nbdcopy -v -R 8 "$tmp/file" - 2> "$tmp/err" > /dev/null
cat "$tmp/err"
grep -v '^libnbd: debug' "$tmp/err" | head -n 5 > "$tmp/lines"
test "$(cat "$tmp/lines")" = "nbdcopy: src: file_ops \"$tmp/file\"
nbdcopy: src: size=3000 (3000), preferred block size=4096
nbdcopy: dst: pipe_ops \"-\"
nbdcopy: dst: size=-1 (unknown), preferred block size=4096
nbdcopy: connections=1 requests=8 threads=1 synchronous=true"
