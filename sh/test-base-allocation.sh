#!/usr/bin/env bash
# test-base-allocation.sh: --base-allocation before -u asks for the
# base:allocation meta context, so block status works; without it there
# is no context, and after -u it is too late (exit 1).
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M
ctx='nbd.CONTEXT_BASE_ALLOCATION'

$VG nbdsh -u "$uri" -c "print(h.can_meta_context($ctx))" > "$tmp/out"
expect "$tmp/out" "False"

$VG nbdsh --base-allocation -u "$uri" -c "print(h.can_meta_context($ctx))" \
  -c '
seen = []
h.block_status(h.get_size(), 0,
               lambda ctx, off, e, err: seen.append((ctx, len(e) > 0)))
print(seen)
' > "$tmp/out"
expect "$tmp/out" "True
[('base:allocation', True)]"

status=0
$VG nbdsh -u "$uri" --base-allocation -c 'print("ran")' \
  > "$tmp/out" 2> "$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
test ! -s "$tmp/out"
grep -q '^nbdsh: command line script failed: nbd_add_meta_context: ' \
  "$tmp/err"
