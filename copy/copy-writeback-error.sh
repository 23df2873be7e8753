#!/usr/bin/env bash
# copy-writeback-error.sh: a destination whose writes are accepted into
# the page cache but fail when written back makes nbdcopy fail (exit 1,
# naming sync_file_range), with or without --flush, for a large copy
# and for one of a single request.  The device is a loop device over a
# file under nbdfuse, served by an nbdkit that fails every write: the
# loop device's writeback gets EIO, as from a failing disk.  Ours used
# to exit 0 here (it never called sync_file_range); libnbd 1.24.4's
# nbdcopy (and Debian's 1.22.2) fail the large copy but exit 0 after the
# small one, whose window is never waited for: ours waits for the last
# windows at the end.
source "${srcdir:-.}/copy-functions.sh"
source "${srcdir:-.}/../fuse/fuse-functions.sh"
set -e
requires losetup --version
requires nbdkit --filter=error memory --version
requires test -x ../fuse/nbdfuse
requires_fuse
make_tmpdir
mkdir "$tmp/mp"
start_nbdkit "$tmp/sock" --filter=error memory size=8M \
             error-pwrite=EIO error-pwrite-rate=100% \
             error-zero=EIO error-zero-rate=100%
start_nbdfuse "$tmp/mp" "$tmp/mp/disk" "$uri"
if ! dev=$(losetup -f --show "$tmp/mp/disk" 2>/dev/null); then
  echo "$0: SKIP: cannot attach a loop device (needs root)"
  exit 77
fi
cleanup_fn losetup -d "$dev"

head -c $((4 * 1024 * 1024)) /dev/urandom > "$tmp/big"
head -c 65536 /dev/urandom > "$tmp/small"

# fails ARGS...: nbdcopy ARGS DEVICE exits 1 naming sync_file_range
# (or the flush, with --flush, if that comes first).
fails ()
{
  local status=0
  $VG nbdcopy "$@" "$dev" 2>"$tmp/err" || status=$?
  grep nbdcopy: "$tmp/err" || :
  if [ $status -ne 1 ]; then
    echo "$0: nbdcopy $* $dev: exit status $status, expected 1"
    exit 1
  fi
  grep -E -q "^nbdcopy: $dev: (sync_file_range|flush) failed" "$tmp/err"
}

fails "$tmp/big"
fails -T 4 "$tmp/big"
fails --synchronous "$tmp/big"
fails "$tmp/small"
fails --flush "$tmp/small"
fails - < "$tmp/small"
