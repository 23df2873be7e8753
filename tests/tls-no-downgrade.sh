#!/bin/bash -
# tls-no-downgrade.sh: TLS required never falls back to plaintext.  A
# server without TLS, or one answering NBD_OPT_STARTTLS wrongly, gives a
# clean error before any request is sent; TLS allowed falls back only
# when the server refuses TLS.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit psk
fake="${builddir:-.}/tls-fake-server"
plain=(nbdkit -s --exit-with-parent memory 1M)

# The client flags (4 bytes) and NBD_OPT_STARTTLS (16 bytes): nothing
# else may have been sent when the connection is given up.
handshake=20

# A server without TLS: required fails, allowed goes on in plaintext.
tls_client --psk "$d/keys.psk" --user alice --fail ENOTSUP \
  --max-sent $handshake -- "${plain[@]}"
tls_client --tls allow --psk "$d/keys.psk" --user alice --negotiated 0 \
  -- "${plain[@]}"
# The same through a nbds:// URI, which always requires TLS.
rm -f "$d/sock"
nbdkit -U "$d/sock" \
  --run "timeout 60 $VG '${builddir:-.}/tls-client' --fail ENOTSUP \
         --max-sent $handshake \
         --uri 'nbds+unix://alice@/?socket=$d/sock&tls-psk-file=$d/keys.psk'" \
  memory 1M

# A server refusing STARTTLS as an unknown option.
tls_client --psk "$d/keys.psk" --user alice --fail ENOTSUP \
  --max-sent $handshake -- "$fake" refuse
# A server accepting STARTTLS, then going on in plaintext: a man in
# the middle stripping TLS.  Never accepted, even when TLS is only
# allowed.
tls_client --psk "$d/keys.psk" --user alice --fail EPROTO \
  --max-sent $handshake -- "$fake" plaintext
tls_client --tls allow --psk "$d/keys.psk" --user alice --fail EPROTO \
  --max-sent $handshake -- "$fake" plaintext
# Neither an ACK nor an error: a broken server, not a refusal (no
# errno, as libnbd 1.22 reports a malformed reply).
tls_client --tls allow --psk "$d/keys.psk" --user alice --fail NOERRNO \
  --max-sent $handshake -- "$fake" bad-reply
echo "$0: OK"
