#!/usr/bin/env bash
# test-flush.sh: closing a file descriptor written through sends
# NBD_CMD_FLUSH (the man page promises it); closing one opened for
# reading only does not.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit memory --version
requires nbdkit --filter=log null --version
make_tmpdir
mkdir "$tmp/mp"

start_nbdkit "$tmp/sock" --filter=log memory size=1M logfile="$tmp/log"
start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/sock"

# The log filter writes one line per command as it starts.
flushes ()
{
  grep -c ' Flush ' "$tmp/log" || :
}

cat "$tmp/mp/nbd" > /dev/null
if [ "$(flushes)" != 0 ]; then
  cat "$tmp/log"
  echo "$0: closing a read-only descriptor flushed"
  exit 1
fi

printf hello | dd of="$tmp/mp/nbd" bs=5 count=1 conv=notrunc status=none
if [ "$(flushes)" = 0 ]; then
  cat "$tmp/log"
  echo "$0: no NBD_CMD_FLUSH after writing and closing"
  exit 1
fi
test "$(head -c 5 "$tmp/mp/nbd")" = hello
stop_nbdfuse "$tmp/mp"
