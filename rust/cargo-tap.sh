#!/bin/bash -
# cargo-tap.sh: run "cargo test" with the given arguments and report
# each Rust test as one TAP result, named after its test binary, so
# automake counts every one of them.
set -u
if [ "${CARGO:-no}" = no ]; then
  echo "1..0 # SKIP Debian's cargo not found by configure (apt-get install cargo)"
  exit 0
fi
# A sanitizer build's libnbd.so needs its runtimes preloaded into the
# uninstrumented Rust programs, and then those programs (like nbdkit
# with them) hang now and then in p11-kit's exit handler, which GnuTLS
# brings in: a freelocale that waits for ever on glibc's locale lock.
# Python's tests avoid it by dropping LD_PRELOAD once python runs;
# a Rust test program cannot, so the crate is tested in the plain build.
case "${RUST_SANITIZE:-}" in
  *-fsanitize=*)
    echo "1..0 # SKIP the Rust programs would need the sanitizer runtimes" \
         "preloaded, and then hang at exit in p11-kit ($RUST_SANITIZE)"
    exit 0 ;;
esac
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
