#!/bin/bash -
# go-tap.sh: run "go test -v" with the given flags and report each Go
# test as one TAP result, so automake counts every one of them.
set -u
if [ "${GOLANG:-no}" = no ]; then
  echo "1..0 # SKIP go not found by configure (apt-get install golang-go)"
  exit 0
fi
case "${GO_SANITIZE:-}" in
  *-fsanitize=thread*)
    # ThreadSanitizer sees only the synchronisation of instrumented
    # code: the Go runtime is not, so its reports could not be trusted.
    # Go's own race detector checks Go's side (go-test-race.sh, in the
    # plain build).
    echo "1..0 # SKIP the Go runtime is not instrumented for" \
         "ThreadSanitizer ($GO_SANITIZE)"
    exit 0 ;;
esac
case " $* " in
  *" -race "*)
    if [ -n "${GO_SANITIZE:-}" ]; then
      echo "1..0 # SKIP the Go race detector cannot share a process with" \
           "the sanitizers this libnbd is built with ($GO_SANITIZE)"
      exit 0
    fi ;;
esac
. "$srcdir/go-env.sh"
cd "$srcdir" || exit 1

out=$("$GOLANG" test -count=1 -v "$@" . 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
printf '%s\n' "$out" | awk -v rc="$rc" '
  /^--- PASS: / { n++; print "ok " n " - " $3; next }
  /^--- SKIP: / { n++; print "ok " n " - " $3 " # SKIP"; next }
  /^--- FAIL: / { n++; fails++; print "not ok " n " - " $3; next }
  END {
    if (rc != 0 && fails == 0) {
      n++; print "not ok " n " - go test exited with status " rc
    }
    print "1.." n
  }'
