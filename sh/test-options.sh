#!/usr/bin/env bash
# test-options.sh: an unknown option or a missing argument exits 2 with
# a usage message and no traceback; abbreviated long options and "--"
# work.
source "${srcdir:-.}/sh-functions.sh"
set -e

fails ()
{
  local expect=$1 status=0
  shift
  $VG nbdsh "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null || status=$?
  cat "$tmp/err"
  test $status -eq 2
  test ! -s "$tmp/out"
  grep -q '^usage: nbdsh ' "$tmp/err"
  grep -q -- "^nbdsh: error: .*$expect" "$tmp/err"
  ! grep -q Traceback "$tmp/err"
}

fails 'unrecognized arguments: --no-such' --no-such
fails 'unrecognized arguments: -x' -x
fails 'expected one argument' -u
fails 'expected one argument' -c
fails 'unrecognized arguments: two' -c pass one two

# Unambiguous prefixes of long options are accepted.
$VG nbdsh --base -c 'print(h.get_meta_context(0))' > "$tmp/out"
expect "$tmp/out" "base:allocation"
$VG nbdsh --comm 'print("ok")' > "$tmp/out"
expect "$tmp/out" "ok"

# After "--" a word starting with "-" is the script's name.
echo 'print("dash script")' > "$tmp/-s.py"
(cd "$tmp" && $VG nbdsh -- -s.py) > "$tmp/out"
expect "$tmp/out" "dash script"
# "--" alone leaves the shell interactive; at end of input it exits 0.
$VG nbdsh -- < /dev/null > "$tmp/out" 2> "$tmp/err"
grep -q 'Welcome to nbdsh' "$tmp/err"
