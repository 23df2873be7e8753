#!/usr/bin/env bash
# copy-options.sh: bad options exit 1 with a message saying what is
# wrong; --help, -V and the option lists exit 0.
source "${srcdir:-.}/copy-functions.sh"
set -e
make_tmpdir
: > "$tmp/src"

fails ()
{
  local expect=$1 status=0
  shift
  $VG nbdcopy "$@" "$tmp/src" "$tmp/dst" 2>"$tmp/err" || status=$?
  cat "$tmp/err"
  test $status -eq 1
  grep -q -- "$expect" "$tmp/err"
}

fails 'power of 2' --request-size=3000
fails 'power of 2' --request-size=64M
fails 'power of 2' --request-size=1k
fails 'could not parse size string: abc' --request-size=abc
fails 'unknown suffix: X' --request-size=4X
fails 'unknown suffix: KiB' --request-size=4KiB
fails 'could not parse: many' --requests=many
fails 'could not parse: 0' --connections=0
fails 'power of 2' --sparse=1000
fails 'power of 2' --sparse=256
fails 'unrecognized option' --no-such-option
grep -q 'SOURCE DESTINATION' "$tmp/err"
fails "unknown digest algorithm 'nosuchhash'" --blkhash=nosuchhash
fails 'not a power of two: 0' --blkhash=md5/0
fails 'could not parse: x' --progress=x
# Past INT_MAX a descriptor would wrap to -1 (no progress) or -2 (the bar).
fails 'could not parse' --progress=4294967295
fails 'could not parse' --progress=2147483648
fails 'could not parse' --threads=4294967294

# Human sizes are accepted.
$VG nbdcopy --request-size=1M --queue-size=64M -S 8k "$tmp/src" "$tmp/dst"

# A missing DESTINATION prints the usage on stderr, as 1.24 does.
status=0
$VG nbdcopy "$tmp/src" 2>"$tmp/err" || status=$?
test $status -eq 1
grep -q 'SOURCE DESTINATION' "$tmp/err"

$VG nbdcopy --help | grep -q 'SOURCE DESTINATION'
# As libnbd's nbdcopy: its own version, then the loaded library's.
$VG nbdcopy -V > "$tmp/version"
$VG nbdcopy --version | cmp - "$tmp/version"
printf 'nbdcopy 1.24.0\nlibnbd 1.24.0\n' | cmp - "$tmp/version"
$VG nbdcopy --long-options | grep -q '^--request-size$'
$VG nbdcopy --short-options | grep -q '^-C$'
