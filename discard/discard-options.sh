#!/bin/bash -
# discard-options.sh: --help, --version, --long-options, --short-options
# of nbddiscard and nbdzero, and bad command lines: each fails with the
# status and message of libnbd 1.24's tools and sends no request.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

for prog in nbddiscard nbdzero; do
  $prog --help > "$tmp/help"
  grep -q "^    $prog \[OPTIONS ...\] NBD-URI | \[ CMD ARGS ... \]$" "$tmp/help"
  grep -q -- '--fast-zero' "$tmp/help"
  $prog -h | cmp - "$tmp/help"

  $prog --version > "$tmp/version"
  test "$(wc -l < "$tmp/version")" -eq 2
  grep -q "^$prog [0-9]*\.[0-9]*\.[0-9]*" "$tmp/version"
  grep -q '^libnbd [0-9]*\.[0-9]*\.[0-9]*' "$tmp/version"
  $prog -V | cmp - "$tmp/version"

  # The lists of 1.24's tools, in their order.
  test "$($prog --short-options | tr '\n' ' ')" = \
    "-V -c -h -l -o -q -v -y -z "
  test "$($prog --long-options | tr '\n' ' ')" = \
    "--check --fast-zero --help --length --offset --quiet --verbose --version --yes --zero "
done

serve m memory 1M
fill m 1M

# No target: status 1 and 1.24's message.
fails 1 nbdzero
says "$tmp/err" "nbdzero: NBD-URI is required.  See --help or nbdzero(1) man page."
test ! -s "$tmp/out"

# A bad command line: status 2, as 1.24's (argparse's) status.
bad ()
{
  fails 2 nbddiscard "$@"
  grep -q "^Try 'nbddiscard --help' for usage.$" "$tmp/err"
  test ! -s "$tmp/out"
}
bad --no-such-option -y "$uri"
grep -q "^nbddiscard: unrecognized option '--no-such-option'$" "$tmp/err"
bad -y -o
grep -q "^nbddiscard: option requires an argument -- 'o'$" "$tmp/err"
bad -y "$uri" "$uri"
grep -q '^nbddiscard: expected one NBD URI or \[ CMD ARGS ... \]$' "$tmp/err"
bad -y -- [ nbdkit memory 1M

# Sizes that cannot be parsed: status 1, 1.24's message.
for s in 1x 1KX -1 '' K 1.5M 0x10 ' 1'; do
  fails 1 nbddiscard -y -o "$s" "$uri"
  says "$tmp/err" "nbddiscard: cannot parse offset/length parameter: $s"
  fails 1 nbdzero -y -l "$s" "$uri"
  says "$tmp/err" "nbdzero: cannot parse offset/length parameter: $s"
done

# A server that is not there, and a URI that is not NBD's.
fails 1 nbdzero -y "nbd+unix:///?socket=$tmp/nothing-here.sock"
grep -q '^nbdzero: nbd_connect_uri: ' "$tmp/err"
fails 1 nbddiscard -y "http://example.com/"
grep -q '^nbddiscard: nbd_connect_uri: ' "$tmp/err"

# Nothing above sent a request; the data is as written.
expect_commands m < /dev/null
nbdcopy "$uri" "$tmp/after"
nbdcopy -- [ nbdkit pattern size=1M ] "$tmp/pattern"
cmp "$tmp/pattern" "$tmp/after"

# Every long option is accepted, and abbreviations of them as 1.24's
# (argparse's) are.
nbddiscard --check --quiet --verbose --offset=1K --length 1K "$uri" \
  > /dev/null 2>&1 || test $? -eq 1
nbdzero --yes --zero --fast-zero --quiet --off 64K --len=64K "$uri"
nbdzero --check --offset 64K --length 64K "$uri"

# [ CMD ARGS ... ] instead of a URI.
nbdzero -y -- [ nbdkit memory 1M ]
nbdzero -c -- [ nbdkit memory 1M ]
echo "$0: OK"
