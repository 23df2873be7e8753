#!/bin/bash -
# tls-psk.sh: TLS with pre-shared keys against nbdkit --tls=require and
# --tls=on: the right key works and data flows; a wrong key, an unknown
# user, a missing file and a user missing from the file fail cleanly.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit psk
server=(nbdkit -s --exit-with-parent --tls-psk="$d/keys.psk")

# The right key, with TLS required by both sides, and with the server
# allowing it (--tls=on) and the client requiring or allowing it.
tls_client --psk "$d/keys.psk" --user alice --negotiated 1 \
  -- "${server[@]}" --tls=require memory 1M
tls_client --psk "$d/keys.psk" --user alice --negotiated 1 \
  -- "${server[@]}" --tls=on memory 1M
tls_client --tls allow --psk "$d/keys.psk" --user alice --negotiated 1 \
  -- "${server[@]}" --tls=on memory 1M
# The URI form, the user name in the userinfo, over a Unix socket.
nbdkit -U "$d/sock" --tls=require --tls-psk="$d/keys.psk" \
  --run "timeout 60 $VG '${builddir:-.}/tls-client' --negotiated 1 \
         --uri 'nbds+unix://alice@/?socket=$d/sock&tls-psk-file=$d/keys.psk'" \
  memory 1M

# TLS disabled against a server that requires it: the server refuses
# the export (NBD_REP_ERR_TLS_REQD), nothing is served in plaintext.
tls_client --tls disable --fail ENOTSUP \
  -- "${server[@]}" --tls=require memory 1M

# Without nbd_set_tls_username the login name ($LOGNAME) is the user.
LOGNAME=alice tls_client --psk "$d/keys.psk" --negotiated 1 \
  -- "${server[@]}" --tls=require memory 1M

# Wrong key, or a user the server does not know: the server drops the
# connection during the handshake.
tls_client --psk "$d/wrong.psk" --user alice --fail ECONNRESET \
  -- "${server[@]}" --tls=require memory 1M
tls_client --psk "$d/bob.psk" --user bob --fail ECONNRESET \
  -- "${server[@]}" --tls=require memory 1M
# The same failures with TLS only allowed: no fallback after a failed
# handshake either.
tls_client --tls allow --psk "$d/wrong.psk" --user alice --fail ECONNRESET \
  -- "${server[@]}" --tls=on memory 1M

# Client-side problems are found before any key is used.
tls_client --psk "$d/missing.psk" --user alice --fail ENOENT \
  -- "${server[@]}" --tls=require memory 1M
tls_client --psk "$d/keys.psk" --user carol --fail EINVAL \
  -- "${server[@]}" --tls=require memory 1M
echo "$0: OK"
