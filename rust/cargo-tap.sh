#!/bin/bash -
# cargo-tap.sh: run "cargo test" with the given arguments and report
# each Rust test as one TAP result, named after its test binary, so
# automake counts every one of them.
set -u
. "$srcdir/tap-skip.sh"
. "$srcdir/cargo-env.sh" || exit 1

out=$("$CARGO" test --offline "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
printf '%s\n' "$out" | awk -v rc="$rc" '
  /^ *Running / { bin = $2; sub(/.*\//, "", bin); sub(/\.rs$/, "", bin); next }
  /^ *Doc-tests / { bin = "doc"; next }
  /^test .* \.\.\. ok$/ { n++; print "ok " n " - " bin "::" $2; next }
  /^test .* \.\.\. ignored/ { n++; print "ok " n " - " bin "::" $2 " # SKIP"; next }
  /^test .* \.\.\. FAILED$/ { n++; fails++; print "not ok " n " - " bin "::" $2; next }
  END {
    if (rc != 0 && fails == 0) {
      n++; print "not ok " n " - cargo test exited with status " rc
    }
    print "1.." n
  }'
