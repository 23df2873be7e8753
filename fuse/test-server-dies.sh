#!/usr/bin/env bash
# test-server-dies.sh: a server that dies while nbdfuse is idle: every
# later read and write fails with EIO, and stderr gets a few lines, not
# one per request.  The request that finds the connection broken may
# fail with ENOTCONN, never with EINVAL ("invalid state: DEAD").
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit memory --version
make_tmpdir
mkdir "$tmp/mp"

start_nbdkit "$tmp/sock" memory size=16M
start_nbdfuse "$tmp/mp" -C 2 "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
dd if="$tmp/mp/nbd" of=/dev/null bs=64k count=2 iflag=direct status=none

# Killed while nothing is in flight: nbdfuse finds out at the next
# request.
kill_nbdkit "$tmp/sock"

# EIO, except that the first request on each of the 2 connections
# may find the connection broken and fail with ENOTCONN.
enotconn=0
check_failure ()
{
  if grep -q 'Input/output error' "$tmp/dd-err"; then
    return
  fi
  if grep -q 'not connected' "$tmp/dd-err" && [ $enotconn -lt 2 ]; then
    enotconn=$((enotconn + 1))
    return
  fi
  cat "$tmp/dd-err"
  echo "$0: $1 did not fail with EIO (ENOTCONN so far: $enotconn)"
  exit 1
}

# Far apart, so that no read comes from the page cache.
for i in $(seq 20); do
  if dd if="$tmp/mp/nbd" of=/dev/null bs=4k count=1 skip=$((i * 128)) \
        iflag=direct 2> "$tmp/dd-err"; then
    echo "$0: read $i from a server that is gone succeeded"
    exit 1
  fi
  check_failure "read $i"
  if printf x | dd of="$tmp/mp/nbd" bs=1 seek=$((i * 524288 + 1)) \
                  conv=notrunc oflag=direct 2> "$tmp/dd-err"; then
    echo "$0: write $i to a server that is gone succeeded"
    exit 1
  fi
  check_failure "write $i"
done

fusermount3 -u "$tmp/mp"
wait_nbdfuse
cat "$tmp/err"
test $status = 1
# Per connection: the first failed request and the lost connection.
if [ "$(wc -l < "$tmp/err")" -gt 4 ]; then
  echo "$0: one message per failed request"
  exit 1
fi
grep -q 'nbdfuse: connection [0-9]* to the server was lost' "$tmp/err"
