#!/usr/bin/env bash
# test-no-handle.sh: -n leaves h undefined (nbd is still imported) and
# refuses the options that need h.
source "${srcdir:-.}/sh-functions.sh"
set -e

$VG nbdsh -n -c '
assert "h" not in globals()
h = nbd.NBD()
assert isinstance(h, nbd.NBD)
print(h.get_handle_name() != "nbdsh")
' > "$tmp/out"
expect "$tmp/out" "True"

# Without -n, h is a fresh handle named "nbdsh".
$VG nbdsh -c 'print(h.get_handle_name(), h.aio_is_created())' > "$tmp/out"
expect "$tmp/out" "nbdsh True"

# libnbd 1.22's words, without "nbdsh: " in front.
refused="error: -n option cannot be used with --base-allocation, \
--opt-mode or --uri"
for opt in "-u nbd://localhost" --base-allocation --opt-mode; do
  status=0
  $VG nbdsh -n $opt -c 'print("ran")' > "$tmp/out" 2> "$tmp/err" ||
    status=$?
  cat "$tmp/err"
  test $status -eq 1
  test ! -s "$tmp/out"
  expect "$tmp/err" "$refused"
done
# The refusal comes before -V, as in libnbd 1.22.
status=0
$VG nbdsh -n -u nbd://localhost -V > "$tmp/out" 2> "$tmp/err" || status=$?
test $status -eq 1
test ! -s "$tmp/out"
expect "$tmp/err" "$refused"
