#!/bin/bash -
# cargo-tap.sh: run "cargo test" with the given arguments and report
# each Rust test as one TAP result, named after its test binary, so
# automake counts every one of them.
#
# The results are counted from stdout alone: a test's own stderr (a
# libnbd debug line, say) may land in the middle of a "test ... ok"
# line when both streams share a pipe.  Cargo's "Running BINARY" lines
# are on stderr; each binary then prints "running N tests" on stdout,
# so the k-th such line on stdout belongs to the k-th binary named on
# stderr.
set -u
. "$srcdir/tap-skip.sh"
. "$srcdir/cargo-env.sh" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CARGO" test --offline "$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" "$tmp/out"
awk -v rc="$rc" '
  FNR == NR {
    if ($1 == "Running") {
      bin = $2; sub(/.*\//, "", bin); sub(/\.rs$/, "", bin); bins[++nbins] = bin
    } else if ($1 == "Doc-tests")
      bins[++nbins] = "doc"
    next
  }
  /^running [0-9]+ tests?$/ { bin = bins[++block]; next }
  /^test .* \.\.\. ok$/ { n++; print "ok " n " - " bin "::" $2; next }
  /^test .* \.\.\. ignored/ { n++; print "ok " n " - " bin "::" $2 " # SKIP"; next }
  /^test .* \.\.\. FAILED$/ { n++; fails++; print "not ok " n " - " bin "::" $2; next }
  END {
    if (block != nbins) {
      n++; print "not ok " n " - " nbins " test binaries on stderr, " block " on stdout"
    }
    if (rc != 0 && fails == 0) {
      n++; print "not ok " n " - cargo test exited with status " rc
    }
    print "1.." n
  }' "$tmp/err" "$tmp/out"
