#!/bin/bash -
# info-options.sh: --help, -V, the option lists, and bad command lines
# (exit 1, a message on stderr, nothing on stdout).
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

nbdinfo --help > "$tmp/help"
grep -q '^    nbdinfo --map\[=CONTEXT\] \[--totals\]' "$tmp/help"

nbdinfo -V > "$tmp/version"
nbdinfo --version | cmp - "$tmp/version"
grep -qx 'nbdinfo 1.24.0' "$tmp/version"
# The second line comes from the library loaded: this tree's.
grep -qx 'libnbd 1.24.0' "$tmp/version"

nbdinfo --short-options | tr '\n' ' ' | grep -qx -- '-L -V '
nbdinfo --long-options > "$tmp/long"
for o in --help --json --size --uri --map --totals --list --content \
         --no-content --can --cannot --is --isnt --has --hasnt --colour; do
  grep -qx -- "$o" "$tmp/long"
done
! grep -q -- '--long-options' "$tmp/long"

start_nbdkit mem memory 1M
mem=$uri
# A server that refuses export names it does not list.
start_nbdkit strict --filter=exportname memory 1M exportname=a \
  exportname-strict=true
strict=$tmp/strict.sock
uri=$mem

# bad ARGS... EXPECTED-MESSAGE: exit 1, that message, empty stdout.
bad ()
{
  local msg=${!#}
  local status=0
  nbdinfo "${@:1:$#-1}" >"$tmp/out" 2>"$tmp/err" || status=$?
  if [ $status != 1 ] || [ -s "$tmp/out" ] || ! grep -q -- "$msg" "$tmp/err"
  then
    echo "$0: FAIL: nbdinfo ${*:1:$#-1}: status $status, stderr:"
    cat "$tmp/err"
    exit 1
  fi
}

bad 'Display information'
bad --bogus "$uri" "unrecognized option '--bogus'"
bad "$uri" "$uri" 'Display information'
bad -- [ ] 'Display information'
bad --size --map "$uri" 'you cannot use --can, --cannot, --list'
bad --list --uri "$uri" 'you cannot use'
bad --can trim --size "$uri" 'you cannot use'
bad --content --no-content "$uri" 'you cannot use --content and --no-content'
bad --totals "$uri" 'you must use --totals only with --map'
bad --can bogus "$uri" 'unknown --can/--is/--has option: bogus'
bad --map=no:such:context "$uri" \
  'server does not support metadata context "no:such:context"'
bad "nbd+unix:///?socket=$tmp/none" 'nbd_connect_uri'
bad "nbd+unix:///nosuch?socket=$strict" 'for export: nosuch'
bad "nbd+unix:///nosuch?socket=$strict" \
  'suggestion: to list all exports on the server, use --list'
bad "nbd+unix:///?socket=$strict" 'for the default export'
bad --size "nbd+unix:///nosuch?socket=$strict" 'nbd_get_size'
bad not-a-uri 'nbd_connect_uri'
echo "$0: OK"
