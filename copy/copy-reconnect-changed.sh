#!/usr/bin/env bash
# copy-reconnect-changed.sh: when the destination server restarts
# serving a different export (1 MiB smaller, read-only, without
# multi-conn, without TLS), nbdcopy --reconnect does not go on: it
# exits 3 (EXIT_EXPORT_CHANGED), before its reconnect window is over,
# with a message naming what changed.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit memory --version
requires nbdkit --filter=rate null --version
requires nbdkit --filter=multi-conn null --version
make_tmpdir
size=$((64 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"

# expect_change MESSAGE: copy to a server started with the words in
# $before, restart it at 20% with the words in $after, and check that
# nbdcopy exits 3 naming the change with MESSAGE.  The destination is
# slowed to about 20 MB/s so that the copy is still running then.  The
# window is long (60 s): a copy that waited it out would fail with
# another status, and the test would be slow to tell.
expect_change ()
{
  local message=$1 sock=$tmp/dst.sock
  start_nbdkit "$sock" --filter=rate "${before[@]}" rate=160M
  start_copy "$tmp/err" "$tmp/progress" \
    --reconnect=60 --reconnect-delay=0.1:1 --checkpoint-bytes=8M \
    "$tmp/src" "${dst_uri:-$uri}"
  wait_progress "$tmp/progress" 20
  restart_nbdkit "$sock" --filter=rate "${after[@]}" rate=160M
  finish_copy "$tmp/err"
  kill_nbdkit "$sock"
  rm -f "$sock" "$sock.pid"
  test $copy_status -eq 3
  grep -q -- "$message" "$tmp/err"
}

before=(memory size=$size)
after=(memory size=$((size - 1024 * 1024)))
expect_change "size changed from $size to $((size - 1024 * 1024))"

after=(-r memory size=$size)
expect_change 'read-only changed from no to yes'

after=(--filter=multi-conn memory size=$size multi-conn-mode=disable)
expect_change 'multi-conn changed from yes to no'

# TLS (PSK) before, plain after: a TLS connection must never come back
# without it.
if ! psktool --version >/dev/null 2>&1 ||
   ! nbdkit --dump-config | grep -q '^tls=yes'; then
  echo "$0: SKIP the TLS case: needs psktool and nbdkit built with TLS"
  exit 0
fi
psktool -u alice -p "$tmp/keys.psk" >/dev/null
before=(--tls=require --tls-psk="$tmp/keys.psk" memory size=$size)
after=(memory size=$size)
dst_uri="nbds+unix://alice@/?socket=$tmp/dst.sock&tls-psk-file=$tmp/keys.psk"
expect_change 'TLS changed from yes to no'
