#!/usr/bin/env bash
# test-reconnect-fail.sh: what --reconnect does when the outage cannot
# be survived.  The server comes back with an export 1 MiB smaller:
# requests fail with EIO, nbdfuse names what changed and exits with
# status 3.  The server does not come back within the window: requests
# fail with EIO and nbdfuse exits with status 1.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit memory --version
make_tmpdir
mkdir "$tmp/mp"

# must_fail WHAT DD-ARGS...: a dd through the mount fails with EIO.
must_fail ()
{
  local what=$1
  shift
  if dd "$@" status=none 2> "$tmp/dd-err"; then
    echo "$0: FAIL: $what succeeded"
    exit 1
  fi
  if ! grep -q 'Input/output error' "$tmp/dd-err"; then
    cat "$tmp/dd-err"
    echo "$0: FAIL: $what did not fail with EIO"
    exit 1
  fi
}

start_nbdkit "$tmp/sock" memory size=16M
start_nbdfuse "$tmp/mp" --reconnect=10 --reconnect-delay=0.1:0.5 \
              "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
dd if=/dev/urandom of="$tmp/mp/nbd" bs=64k count=4 oflag=direct \
   conv=notrunc status=none
kill_nbdkit "$tmp/sock"
restart_nbdkit "$tmp/sock" memory size=15M
must_fail "a read from the smaller export" \
          if="$tmp/mp/nbd" of=/dev/null bs=64k count=1 iflag=direct
must_fail "a later write" \
          if=/dev/zero of="$tmp/mp/nbd" bs=64k count=1 seek=8 \
          oflag=direct conv=notrunc
fusermount3 -u "$tmp/mp"
wait_nbdfuse
cat "$tmp/err"
test "$status" = 3
grep -q 'the export changed: size changed from 16777216 to 15728640' \
     "$tmp/err"
grep -q 'requests fail with EIO from now on' "$tmp/err"
kill_nbdkit "$tmp/sock"

# No server at all for longer than the window.
rm -f "$tmp/sock" "$tmp/sock.pid"
start_nbdkit "$tmp/sock" memory size=16M
start_nbdfuse "$tmp/mp" --reconnect=2 --reconnect-delay=0.1:0.5 \
              "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
kill_nbdkit "$tmp/sock"
must_fail "a read with the server gone" \
          if="$tmp/mp/nbd" of=/dev/null bs=64k count=1 iflag=direct
must_fail "a later read" \
          if="$tmp/mp/nbd" of=/dev/null bs=64k count=1 skip=8 iflag=direct
fusermount3 -u "$tmp/mp"
wait_nbdfuse
cat "$tmp/err"
test "$status" = 1
grep -q 'could not reconnect: .*requests fail with EIO from now on' \
     "$tmp/err"
grep -q 'nbdfuse: 0 reconnects, waited [2-9]' "$tmp/err"
