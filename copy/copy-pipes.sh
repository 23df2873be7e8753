#!/usr/bin/env bash
# copy-pipes.sh: standard input and output as endpoints, each way and
# both at once, a stream into a longer file, and null: as the
# destination.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
make_tmpdir
make_sparse_file "$tmp/src" $((5 * 1024 * 1024 + 99))

cat "$tmp/src" | $VG nbdcopy - "$tmp/dst1"
cmp "$tmp/src" "$tmp/dst1"

$VG nbdcopy "$tmp/src" - | cat > "$tmp/dst2"
cmp "$tmp/src" "$tmp/dst2"

cat "$tmp/src" | $VG nbdcopy - - | cat > "$tmp/dst3"
cmp "$tmp/src" "$tmp/dst3"

# NBD to a pipe, holes written as zeroes.
nbdkit -U - file "$tmp/src" --run "$VG nbdcopy \"\$uri\" - | cat > $tmp/dst4"
cmp "$tmp/src" "$tmp/dst4"

# A stream of unknown size into an existing, longer file: the file
# ends up holding the stream, and nothing of what it held before.
head -c $((7 * 1024 * 1024)) /dev/urandom > "$tmp/dst5"
cat "$tmp/src" | $VG nbdcopy - "$tmp/dst5"
cmp "$tmp/src" "$tmp/dst5"

$VG nbdcopy "$tmp/src" null:
