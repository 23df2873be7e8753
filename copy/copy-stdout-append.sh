#!/usr/bin/env bash
# copy-stdout-append.sh: standard output opened for appending (">>" on
# a regular file) gets the source after what the file held, in order,
# holes written as zeroes: writes at offsets would all land at the end.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
make_tmpdir
make_sparse_file "$tmp/src" $((3 * 1024 * 1024 + 77))
printf 'kept before the copy\n' > "$tmp/head"

for mode in "" --synchronous; do
  cp "$tmp/head" "$tmp/dst"
  $VG nbdcopy $mode "$tmp/src" - >> "$tmp/dst"
  cat "$tmp/head" "$tmp/src" | cmp - "$tmp/dst"

  cp "$tmp/head" "$tmp/dst"
  nbdkit -U - file "$tmp/src" \
    --run "$VG nbdcopy $mode \"\$uri\" - >> $tmp/dst"
  cat "$tmp/head" "$tmp/src" | cmp - "$tmp/dst"
done
