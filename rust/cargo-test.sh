#!/bin/bash -
# cargo-test.sh: the crate's tests (rust/tests/), blocking and async.
# In a sanitizer build, a program with the runtimes preloaded can hang
# in p11-kit's exit handler when other threads are still ending (seen
# with libtest's and tokio's threads): run the tests one at a time.
threads=2
case "${RUST_SANITIZE:-}" in *-fsanitize=*) threads=1 ;; esac
exec "$srcdir/cargo-tap.sh" --tests -- --test-threads=$threads
