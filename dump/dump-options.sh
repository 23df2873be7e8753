#!/bin/bash -
# dump-options.sh: --help, --version, --long-options, --short-options,
# and bad command lines, which fail with a message and print no dump.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"

nbddump --help > "$tmp/help"
grep -q '^    nbddump \[OPTIONS ...\] NBD-URI | \[ CMD ARGS ... \]$' \
  "$tmp/help"
grep -q -- '--length' "$tmp/help"

nbddump --version > "$tmp/version"
cat "$tmp/version"
test "$(wc -l < "$tmp/version")" -eq 2
grep -q '^nbddump [0-9]*\.[0-9]*\.[0-9]*$' "$tmp/version"
grep -q '^libnbd [0-9]*\.[0-9]*\.[0-9]*$' "$tmp/version"
nbddump -V | cmp - "$tmp/version"

nbddump --long-options > "$tmp/long"
for o in --help --version --color --colors --colour --colours \
         --no-color --no-colors --no-colour --no-colours \
         --length --limit --offset --skip; do
  grep -qx -- "$o" "$tmp/long"
done
test "$(wc -l < "$tmp/long")" -eq 14
test "$(nbddump --short-options | tr '\n' ' ')" = "-n -o -V "

# Every long option listed is accepted (those taking a size get one).
start_nbdkit d data '1'
for o in $(cat "$tmp/long"); do
  case "$o" in
    --help|--version) continue ;;
    --length|--limit|--offset|--skip) o="$o=0" ;;
  esac
  nbddump "$o" "$uri" > /dev/null
done

# No target, two targets, an unknown option, a missing argument, an
# unclosed bracket, a server that cannot be reached.
bad ()
{
  if nbddump "$@" > "$tmp/bad.out" 2> "$tmp/bad.err"; then
    echo "$0: FAIL: nbddump $* succeeded"
    exit 1
  fi
  head -n 3 "$tmp/bad.err"
  test -s "$tmp/bad.err"
  test ! -s "$tmp/bad.out"
}
bad
bad "$uri" "$uri"
bad --no-such-option "$uri"
bad -n
bad -- [ nbdkit data 1
bad "nbd+unix:///?socket=$tmp/nothing-here.sock"
grep -q '^nbddump: ' "$tmp/bad.err"
bad "http://example.com/"
grep -q '^nbddump: ' "$tmp/bad.err"
echo "$0: OK"
