#!/usr/bin/env bash
# test-options.sh: an unknown option or a missing argument exits 2 with
# a usage message and no traceback, as does a file name or "--";
# abbreviated long options work.
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
fails 'unrecognized arguments: one two$' -c pass one two

# Unambiguous prefixes of long options are accepted.
$VG nbdsh --base -c 'print(h.get_meta_context(0))' > "$tmp/out"
expect "$tmp/out" "base:allocation"
$VG nbdsh --comm 'print("ok")' > "$tmp/out"
expect "$tmp/out" "ok"

# As in libnbd 1.22, there is no file argument: a file name, "--"
# alone or followed by anything is refused before any -c runs.
echo 'print("script ran")' > "$tmp/file.py"
fails "unrecognized arguments: $tmp/file.py\$" "$tmp/file.py"
fails "unrecognized arguments: $tmp/file.py\$" -c 'print("ran")' "$tmp/file.py"
fails "unrecognized arguments: $tmp/file.py\$" -n -u nbd://x "$tmp/file.py"
fails 'unrecognized arguments: --$' --
fails 'unrecognized arguments: --$' -c 'print("ran")' --
fails "unrecognized arguments: -- $tmp/file.py\$" -- "$tmp/file.py"
fails 'unrecognized arguments: -- -c pass$' -- -c pass
