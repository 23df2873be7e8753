#!/bin/bash -
# tls-hangup.sh: nbdkit killed right after a reply, in plaintext and
# under TLS (PSK): the reply arrives, the next command fails with the
# same kind of error either way (see tls-hangup.c).
set -euo pipefail
source "${srcdir:-.}/functions.sh"
source "${srcdir:-.}/tls-functions.sh"

requires nbdkit --version
tls_tmpdir
tls_make_psk
d="$tls_dir"
cleanup_fn 'test ! -f "$d/pid" || kill -9 "$(cat "$d/pid")" 2>/dev/null'

# hangup MODE NBDKIT-ARGS...: a fresh nbdkit on its own socket, killed
# by the client.
hangup ()
{
  local mode=$1
  shift
  rm -f "$d/sock" "$d/pid"
  nbdkit -U "$d/sock" -P "$d/pid" "$@" --filter=delay memory 1M \
    delay-extents=30
  timeout 60 $VG "${builddir:-.}/tls-hangup" "$mode" "$d/sock" "$d/pid" \
    "$d/keys.psk"
}

hangup plain
hangup psk --tls=require --tls-psk="$d/keys.psk"
echo "$0: OK"
