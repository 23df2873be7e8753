#!/usr/bin/env bash
# test-signal.sh: SIGTERM and SIGINT to the pid in the pidfile unmount
# cleanly (exit status 0, the mountpoint gone from /proc/mounts); a
# server that goes away makes reads fail and the exit status 1.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit memory --version
make_tmpdir
mkdir "$tmp/mp"

for sig in TERM INT; do
  # With job control, the shell does not make the job ignore SIGINT
  # (and libfuse would leave an ignored signal alone).
  set -m
  start_nbdfuse "$tmp/mp" "$tmp/mp" \
    [ nbdkit --exit-with-parent memory size=1M ]
  set +m
  test "$(cat "$tmp/nbdfuse.pid")" = $nbdfuse_pid
  head -c 1M /dev/urandom > "$tmp/data"
  cp "$tmp/data" "$tmp/mp/nbd"
  kill -$sig $nbdfuse_pid
  wait_nbdfuse
  if [ $status -ne 0 ]; then
    echo "$0: nbdfuse exited with $status after SIG$sig"
    exit 1
  fi
  if is_mounted "$tmp/mp"; then
    echo "$0: still mounted after SIG$sig"
    exit 1
  fi
done

# The server dies under the mount.
start_nbdkit "$tmp/sock" memory size=1M
start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/err"
dd if="$tmp/mp/nbd" of=/dev/null bs=64k count=1 iflag=direct status=none
# SIGKILL: the connection breaks, no reply says why.
kill_nbdkit "$tmp/sock"
if dd if="$tmp/mp/nbd" of=/dev/null bs=64k count=1 iflag=direct; then
  echo "$0: read from a server that is gone"
  exit 1
fi
fusermount3 -u "$tmp/mp"
wait_nbdfuse
cat "$tmp/err"
test $status = 1
grep 'nbdfuse: connection [0-9]* to the server was lost' "$tmp/err"
