#!/bin/bash -
# tls-opt-starttls.sh: in opt mode with TLS left disabled,
# nbd_aio_opt_starttls and nbd_opt_starttls start TLS on a server that
# offers it (true, and a second request is refused without undoing it)
# and answer false on one that does not; either way the export can
# then be used.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit psk

for how in "" --opt-sync; do
  tls_client --tls disable --psk "$d/keys.psk" --user alice \
    --opt-starttls 1 $how --negotiated 1 \
    -- nbdkit -s --exit-with-parent --tls=on --tls-psk="$d/keys.psk" \
       memory 1M
  tls_client --tls disable --psk "$d/keys.psk" --user alice \
    --opt-starttls 0 $how --negotiated 0 \
    -- nbdkit -s --exit-with-parent memory 1M
done
echo "$0: OK"
