#!/bin/bash -
# tls-aio-parallel.sh: 64 commands of 64 KiB in flight over TLS (PSK and
# X.509), written then read back and compared; and a connection whose
# TLS handshake is driven by nbd_aio_get_direction and our own poll.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit psk pki

tls_client --aio --psk "$d/keys.psk" --user alice --negotiated 1 \
  -- nbdkit -s --exit-with-parent --tls=require --tls-psk="$d/keys.psk" \
     memory 8M
tls_client --aio --certs "$d/client" --hostname localhost --negotiated 1 \
  -- nbdkit -s --exit-with-parent --tls=require \
     --tls-certificates="$d/server" memory 8M
# The handshake driven by our own poll loop, as event loops do.
tls_client --aio --manual-poll --psk "$d/keys.psk" --user alice \
  --negotiated 1 \
  -- nbdkit -s --exit-with-parent --tls=require --tls-psk="$d/keys.psk" \
     memory 8M
echo "$0: OK"
