#!/usr/bin/env bash
# test-modes.sh: mounting over a regular file (--command), --fd (a
# socket passed in), --tcp and --socket-activation; each reads the
# export's bytes.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit data --version
requires python3 --version
make_tmpdir
nbdkit_data=(data '"abcdefghijklmnopqrstuvwxyz"*100 1*1000' size=1M)
python3 -c '
import sys
d = b"abcdefghijklmnopqrstuvwxyz" * 100 + b"\1" * 1000
sys.stdout.buffer.write(d + b"\0" * (1048576 - len(d)))' > "$tmp/expected"

# The mountpoint is a regular file: the file itself is the export.
touch "$tmp/file"
start_nbdfuse "$tmp/file" "$tmp/file" \
  --command nbdkit -s --exit-with-parent "${nbdkit_data[@]}"
test "$(stat -c '%s %F' "$tmp/file")" = "1048576 regular file"
cmp "$tmp/expected" "$tmp/file"
stop_nbdfuse "$tmp/file"
test "$(stat -c '%s' "$tmp/file")" = 0

mkdir "$tmp/mp"
start_nbdfuse "$tmp/mp" "$tmp/mp" \
  --socket-activation nbdkit --exit-with-parent "${nbdkit_data[@]}"
cmp "$tmp/expected" "$tmp/mp/nbd"
stop_nbdfuse "$tmp/mp"

# --fd: a connected socket inherited from the parent (python opens it
# and becomes nbdfuse).
start_nbdkit "$tmp/sock" "${nbdkit_data[@]}"
run_mount "$tmp/mp" python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
os.set_inheritable(s.fileno(), True)
args = sys.argv[2:-1] + [str(s.fileno())]
os.execvp(args[0], args)' "$tmp/sock" $VG nbdfuse \
  -P "$tmp/nbdfuse.pid" "$tmp/mp" --fd N
cmp "$tmp/expected" "$tmp/mp/nbd"
stop_nbdfuse "$tmp/mp"

# --tcp, on a port that was free a moment ago.
port=$(python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
nbdkit -f -i 127.0.0.1 -p $port -P "$tmp/tcp.pid" "${nbdkit_data[@]}" &
for _ in $(seq 100); do
  [ -s "$tmp/tcp.pid" ] && break
  sleep 0.1
done
cleanup_fn "kill $(cat "$tmp/tcp.pid")"
start_nbdfuse "$tmp/mp" "$tmp/mp" --tcp 127.0.0.1 $port
cmp "$tmp/expected" "$tmp/mp/nbd"
stop_nbdfuse "$tmp/mp"
