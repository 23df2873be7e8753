#!/usr/bin/env bash
# copy-reconnect-qemu.sh: with --reconnect, nbdcopy survives a
# persistent qemu-nbd (-t) serving its destination killed with SIGKILL
# and restarted on the same socket twice: it exits 0 and the
# destination equals the source.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires qemu-nbd --version
requires nbdkit --version
requires nbdkit file --version
requires nbdkit --filter=rate null --version
make_tmpdir
size=$((128 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
truncate -s $size "$tmp/dst"

# qemu-nbd cannot be slowed down, so the source is, to about 20 MB/s,
# so that the copy takes long enough to be killed under.
start_nbdkit "$tmp/src.sock" -r --filter=rate file "$tmp/src" rate=160M
src_uri=$uri

# start_qemu_nbd: qemu-nbd on $tmp/dst.sock, killed at exit.  Several
# clients may share it, as nbdcopy opens one connection per worker.
start_qemu_nbd ()
{
  local sock=$tmp/dst.sock
  rm -f "$sock" "$sock.pid"
  qemu-nbd -t -e 16 -f raw -k "$sock" --pid-file="$sock.pid" \
    "$tmp/dst" &
  for _ in $(seq 100); do
    [ -s "$sock.pid" ] && [ -S "$sock" ] && break
    sleep 0.1
  done
  if [ ! -s "$sock.pid" ] || [ ! -S "$sock" ]; then
    echo "$0: qemu-nbd did not start"
    exit 1
  fi
  cleanup_fn kill "$(cat "$sock.pid")"
}
start_qemu_nbd

start_copy "$tmp/err" "$tmp/progress" \
  --reconnect=60 --reconnect-delay=0.1:1 --checkpoint-bytes=8M \
  "$src_uri" "nbd+unix:///?socket=$tmp/dst.sock"
for pct in 20 50; do
  wait_progress "$tmp/progress" $pct
  kill_nbdkit "$tmp/dst.sock"           # any server with a pid file
  sleep 0.5
  start_qemu_nbd
done
finish_copy "$tmp/err"

test $copy_status -eq 0
cmp "$tmp/src" "$tmp/dst"
reconnect_summary "$tmp/err"
test "$reconnects" -ge 2
