#!/usr/bin/env bash
# test-interactive.sh: without -c or a script nbdsh is an interactive
# Python shell (prompt "nbd> ", banner on stderr) reading stdin; errors
# there do not end it, exit() does.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

echo 'print(h.get_size())' | $VG nbdsh -u "$uri" > "$tmp/out" 2> "$tmp/err"
test "$(cat "$tmp/out")" = "nbd> 1048576
nbd> "
grep -q '^Welcome to nbdsh' "$tmp/err"
grep -q "'h' is an NBD handle" "$tmp/err"

# An nbd.Error is printed and the shell reads on; names persist from
# one line to the next.  (Each prompt precedes its line's output.)
printf '%s\n' 'h.pread(512, 1 << 30)' 'x = h.get_size()' 'print("x", x)' |
  $VG nbdsh --base-allocation -u "$uri" > "$tmp/out" 2> "$tmp/err"
grep -q '^\(nbd> \)*x 1048576$' "$tmp/out"
grep -q '^nbd\.Error: nbd_pread: ' "$tmp/err"

status=0
printf 'exit(4)\nprint("after")\n' | $VG nbdsh > "$tmp/out" 2>&1 ||
  status=$?
test $status -eq 4
! grep -q after "$tmp/out"

# -n: the banner says there is no handle, and there is none.
echo 'print("h" in globals(), nbd.NBD)' | $VG nbdsh -n > "$tmp/out" \
  2> "$tmp/err"
grep -q "There is no handle" "$tmp/err"
grep -q "^nbd> False <class 'nbd.NBD'>" "$tmp/out"
