# tap-skip.sh: sourced by the Rust TAP tests (cargo-tap.sh,
# run-examples.sh): print a TAP skip and exit when they cannot run here.
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
