#!/usr/bin/env bash
# copy-zero-fallback.sh: on a file system that refuses fallocate's
# zero-range mode (tmpfs), --allocated falls back to writing zeroes,
# from four threads at once: every worker sees the mode refused, and
# they share the flag that remembers it (the ThreadSanitizer build
# runs this).
source "${srcdir:-.}/copy-functions.sh"
set -e
requires test -d /dev/shm -a -w /dev/shm
requires fallocate --version
shm=$(mktemp -d /dev/shm/copy-zero-fallback.XXXXXX)
cleanup_fn rm -rf "$shm"
truncate -s 4096 "$shm/probe"
if fallocate -z -o 0 -l 4096 "$shm/probe" 2>/dev/null; then
  echo "$0: SKIP: /dev/shm supports zero-range, no fallback to test"
  exit 77
fi

size=$((32 * 1024 * 1024))
make_sparse_file "$shm/src" $size
$VG nbdcopy -T 4 --request-size=64k --allocated "$shm/src" "$shm/dst"
cmp "$shm/src" "$shm/dst"
# The holes were written as zeroes: nothing is left unallocated.
test $(( $(stat -c %b "$shm/dst") * 512 )) -ge $size
