#!/bin/bash -
# discard-range.sh: --offset and --length with size suffixes select the
# bytes erased; a range past the end is cut to the end with a warning,
# an offset at or past the end is warned about and nothing is done
# (status 0); -q silences the warnings; an empty range sends nothing.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

serve m memory 4M
mark m

# Suffixes, in either case, and plain bytes.
nbddiscard -y -o 1K -l 2k "$uri"
nbddiscard -y -o 512 -l 1536 "$uri"
nbdzero -y -o 1M -l 1KiB "$uri"
nbdzero -y -o 2m -l 3b "$uri"
nbdzero -y -o 0G -l 0T "$uri"
expect_commands m <<EOF2
Trim offset=0x400 count=0x800 fua=0
Flush
Trim offset=0x200 count=0x600 fua=0
Flush
Zero offset=0x100000 count=0x400 trim=1 fua=0 fast=0
Flush
Zero offset=0x200000 count=0x3 trim=1 fua=0 fast=0
Flush
EOF2

# Past the end: cut, with a warning on stdout.
mark m
nbdzero -y -o 3M -l 2M "$uri" > "$tmp/out"
says "$tmp/out" "warning: offset + length is beyond the end of the disk"
nbddiscard -y -l 20E "$uri" > "$tmp/out"
says "$tmp/out" "warning: offset + length is beyond the end of the disk"
nbdzero -q -y -o 4194303 -l 99999999999999999999999 "$uri" > "$tmp/out"
test ! -s "$tmp/out"
expect_commands m <<EOF2
Zero offset=0x300000 count=0x100000 trim=1 fua=0 fast=0
Flush
Trim offset=0x0 count=0x400000 fua=0
Flush
Zero offset=0x3fffff count=0x1 trim=1 fua=0 fast=0
Flush
EOF2

# An offset at or past the end: a warning, status 0, nothing sent,
# nothing asked (stdin says no).
mark m
for o in 4M 4194305 1T 20E 99999999999999999999999K; do
  nbddiscard -o $o "$uri" < /dev/null > "$tmp/out"
  says "$tmp/out" "warning: offset at or beyond the end of the disk"
  nbdzero -q -o $o "$uri" < /dev/null > "$tmp/out"
  test ! -s "$tmp/out"
  nbdzero -c -o $o "$uri" > "$tmp/out"
  says "$tmp/out" "warning: offset at or beyond the end of the disk"
done
# An empty range: nothing asked, nothing sent.
nbdzero -l 0 "$uri" < /dev/null > "$tmp/out"
test ! -s "$tmp/out"
nbddiscard -o 1M -l 0K "$uri" < /dev/null > "$tmp/out"
test ! -s "$tmp/out"
expect_commands m < /dev/null

# An empty export: nothing to do by default, a warning with -o 0.
serve e memory 0
nbddiscard "$uri" < /dev/null > "$tmp/out"
test ! -s "$tmp/out"
nbdzero -o 0 "$uri" < /dev/null > "$tmp/out"
says "$tmp/out" "warning: offset at or beyond the end of the disk"
expect_commands e < /dev/null

# The server's alignment is the server's to enforce: an unaligned
# range on a 4K-block export fails with its error and status 1.
serve b --filter=blocksize-policy memory 1M blocksize-minimum=4096 \
  blocksize-error-policy=error
fails 1 nbdzero -y -o 1 -l 4K "$uri"
grep -q '^nbdzero: nbd_zero: ' "$tmp/err"
nbdzero -y -o 4K -l 4K "$uri"
echo "$0: OK"
