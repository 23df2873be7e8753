#!/bin/bash -
# tls-qemu.sh: TLS against qemu-nbd, with tls-creds-psk and with
# tls-creds-x509: data written and read back over nbds+unix:// URIs,
# and a wrong key refused.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup qemu-nbd psk pki
truncate -s 10M "$d/disk.img"
client="${builddir:-.}/tls-client"

# Serve disk.img with the credentials object $1 until the client ends.
# -t: keep serving after each client.
start_qemu ()
{
  rm -f "$d/sock" "$d/sock.pid"
  qemu-nbd -t -k "$d/sock" --pid-file="$d/sock.pid" -f raw --object "$1" \
    --tls-creds tls0 "$d/disk.img" &
  qemu_pid=$!
  cleanup_fn "kill $qemu_pid 2>/dev/null"
  wait_for_file "$d/sock.pid" qemu-nbd
}

# qemu-nbd reads keys.psk from the directory it is given.
mkdir "$d/qpsk"
cp "$d/keys.psk" "$d/qpsk/keys.psk"
start_qemu "tls-creds-psk,id=tls0,endpoint=server,dir=$d/qpsk"
tls_client --negotiated 1 \
  --uri "nbds+unix://alice@/?socket=$d/sock&tls-psk-file=$d/keys.psk"
tls_client --aio --negotiated 1 \
  --uri "nbds+unix://alice@/?socket=$d/sock&tls-psk-file=$d/keys.psk"
tls_client --fail ECONNRESET \
  --uri "nbds+unix://alice@/?socket=$d/sock&tls-psk-file=$d/wrong.psk"
kill $qemu_pid
wait $qemu_pid || :

start_qemu "tls-creds-x509,id=tls0,endpoint=server,dir=$d/server,verify-peer=true"
tls_client --negotiated 1 \
  --uri "nbds+unix:///?socket=$d/sock&tls-certificates=$d/client&tls-hostname=localhost"
tls_client --fail EPROTO \
  --uri "nbds+unix:///?socket=$d/sock&tls-certificates=$d/other&tls-hostname=localhost"
kill $qemu_pid
wait $qemu_pid || :
echo "$0: OK"
