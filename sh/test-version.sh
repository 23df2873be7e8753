#!/usr/bin/env bash
# test-version.sh: -V and --version print the versions of nbdsh and of
# the libnbd it runs on, the build's, and exit 0.
source "${srcdir:-.}/sh-functions.sh"
set -e

for opt in -V --version; do
  $VG nbdsh $opt > "$tmp/out"
  expect "$tmp/out" "nbdsh $EXPECTED_VERSION
libnbd $EXPECTED_VERSION"
done
