#!/bin/bash -
# cargo-test.sh: the crate's tests (rust/tests/), blocking and async.
exec "$srcdir/cargo-tap.sh" --tests -- --test-threads=2
