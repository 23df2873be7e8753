#!/usr/bin/env bash
# test-reconnect-exit.sh: nbdfuse --reconnect flushes every connection
# before it exits, so that exit status 0 means every write the server
# acknowledged is durable there.  The export is behind nbdkit's cache
# filter in writeback mode (written data stays in memory until a
# flush), and the server is SIGKILLed right after nbdfuse exits.
#
# The kernel sends a flush at each close of the file, so the writes
# left unflushed at exit are those of a program that still holds the
# file open when nbdfuse is told to exit (SIGTERM: nbdfuse unmounts
# itself).  Without --reconnect (libnbd 1.22's behaviour) the same
# scenario loses them, which shows the test can tell.  And a server
# gone for good at exit makes nbdfuse exit non-zero, not 0.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=cache null --version
requires python3 --version
requires nbdcopy --version
make_tmpdir
mkdir "$tmp/mp"

size=$((16 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/pattern"
server=(--filter=cache file "$tmp/disk" cache=writeback)

# start_writer: a program that writes the pattern over the export and
# keeps the file open (no close, no flush), until killed.  Returns
# once it has written it all.
start_writer ()
{
  rm -f "$tmp/written"
  python3 -c '
import os, sys, time
fd = os.open (sys.argv[1], os.O_RDWR)
data = open (sys.argv[2], "rb").read ()
off = 0
while off < len (data):
    off += os.pwrite (fd, data[off:off + 1048576], off)
open (sys.argv[3], "w").write ("done\n")
time.sleep (600)
' "$tmp/mp/nbd" "$tmp/pattern" "$tmp/written" &
  writer=$!
  cleanup_fn "kill $writer 2>/dev/null"
  for _ in $(seq 600); do
    [ ! -s "$tmp/written" ] || return 0
    if ! kill -0 $writer 2>/dev/null; then
      echo "$0: the writer failed"
      exit 1
    fi
    sleep 0.1
  done
  echo "$0: the writer did not finish in a minute"
  exit 1
}

# exit_with_writer NBDFUSE-OPTIONS...: write with the file held open,
# SIGTERM nbdfuse and set $status to its exit status.
exit_with_writer ()
{
  rm -f "$tmp/disk"
  truncate -s $size "$tmp/disk"
  start_nbdkit "$tmp/sock" "${server[@]}"
  start_nbdfuse "$tmp/mp" "$@" "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
  start_writer
  kill -TERM $nbdfuse_pid
  wait_nbdfuse
  kill $writer
  wait $writer 2>/dev/null || :
  cat "$tmp/err"
  echo "$0: nbdfuse $* exited with status $status"
}

# killed_equal: SIGKILL the server as a crash would, start it again and
# read the export back (--no-extents: the cache filter reports the
# file's holes as extents); succeed if it holds the pattern.
killed_equal ()
{
  kill_nbdkit "$tmp/sock"
  restart_nbdkit "$tmp/sock" "${server[@]}"
  rm -f "$tmp/back"
  nbdcopy --no-extents "$uri" "$tmp/back"
  kill_nbdkit "$tmp/sock"
  cmp -s "$tmp/pattern" "$tmp/back"
}

# The control: nothing flushes, and the kill loses what the cache held.
exit_with_writer
test $status -eq 0
if killed_equal; then
  echo "$0: FAIL: equal without a flush at exit: the kill lost" \
       "nothing, so this test cannot tell"
  exit 1
fi

for opts in "--reconnect=30" "--reconnect=30 -C 1"; do
  # shellcheck disable=SC2086
  exit_with_writer $opts
  test $status -eq 0
  if ! killed_equal; then
    echo "$0: FAIL: nbdfuse $opts exited 0 but the export lost data" \
         "when its server was killed right after"
    exit 1
  fi
done

# The server dies (for good) under the open file: the flush at exit
# fails and nbdfuse must say so with its exit status.
rm -f "$tmp/disk"
truncate -s $size "$tmp/disk"
start_nbdkit "$tmp/sock" "${server[@]}"
start_nbdfuse "$tmp/mp" --reconnect=30 "$tmp/mp" --unix "$tmp/sock" \
              2> "$tmp/err"
start_writer
kill_nbdkit "$tmp/sock"
kill -TERM $nbdfuse_pid
wait_nbdfuse
kill $writer
cat "$tmp/err"
echo "$0: nbdfuse exited with status $status"
test $status -ne 0
grep -q 'not flushed at exit: the last writes may not be durable' "$tmp/err"

# A connection that broke while idle (the server restarted) is found
# by the flush at unmount, which reconnects and is sent again: nbdfuse
# still exits 0.
rm -f "$tmp/disk"
truncate -s $size "$tmp/disk"
start_nbdkit "$tmp/sock" "${server[@]}"
start_nbdfuse "$tmp/mp" --reconnect=30 "$tmp/mp" --unix "$tmp/sock" \
              2> "$tmp/err"
dd if="$tmp/pattern" of="$tmp/mp/nbd" bs=1M oflag=direct conv=notrunc \
   status=none
kill_nbdkit "$tmp/sock"
restart_nbdkit "$tmp/sock" "${server[@]}"
stop_nbdfuse "$tmp/mp"
cat "$tmp/err"
grep -q 'nbdfuse: reconnected after' "$tmp/err"
killed_equal
