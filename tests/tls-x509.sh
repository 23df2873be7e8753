#!/bin/bash -
# tls-x509.sh: TLS with X.509 certificates made at test time against
# nbdkit: the right CA, hostname and client certificate work over a
# Unix socket, a nbds+unix:// URI and a nbds:// TCP URI; a wrong CA, a
# wrong hostname, a missing directory (unless the peer is not
# checked) and a missing client certificate fail cleanly.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit pki
server=(nbdkit -s --exit-with-parent --tls-certificates="$d/server")
client="timeout 60 $VG '${builddir:-.}/tls-client'"

# A Unix socket has no hostname: name the server, or check the chain
# only.
tls_client --certs "$d/client" --hostname localhost --negotiated 1 \
  -- "${server[@]}" --tls=require --tls-verify-peer memory 1M
tls_client --certs "$d/client" --negotiated 1 \
  -- "${server[@]}" --tls=on memory 1M
tls_client --tls allow --certs "$d/anon" --hostname localhost \
  --negotiated 1 -- "${server[@]}" --tls=require memory 1M

# URIs: the query parameters, and over TCP the host name of the URI.
rm -f "$d/sock"
nbdkit -U "$d/sock" --tls=require --tls-certificates="$d/server" \
  --run "$client --negotiated 1 --uri 'nbds+unix:///?socket=$d/sock&tls-certificates=$d/client&tls-hostname=localhost'" \
  memory 1M
# Over TCP the name checked is the URI's host: localhost is in the
# certificate, 127.0.0.1 (the same server) is not.
for try in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  if nbdkit -i 127.0.0.1 -p "$port" --tls=require \
       --tls-certificates="$d/server" --tls-verify-peer \
       --run "$client --negotiated 1 --uri 'nbds://localhost:$port/?tls-certificates=$d/client' &&
              $client --fail EPROTO --uri 'nbds://127.0.0.1:$port/?tls-certificates=$d/client'" \
       memory 1M; then
    break
  fi
  # Only a port in use is worth another try.
  if ! ss -ltn 2>/dev/null | grep -q ":$port "; then exit 1; fi
done

# The server's certificate is not from the CA we trust.
tls_client --certs "$d/other" --hostname localhost --fail EPROTO \
  -- "${server[@]}" --tls=require memory 1M
# ... which is fine when told not to check it.
tls_client --certs "$d/other" --no-verify --negotiated 1 \
  -- "${server[@]}" --tls=require memory 1M
# No ca-cert.pem: the system's CAs are used, and they do not know ours.
tls_client --certs "$d/noca" --hostname localhost --fail EPROTO \
  -- "${server[@]}" --tls=require memory 1M
# The certificate is for localhost, not for this name.
tls_client --certs "$d/client" --hostname wrong.example.com --fail EPROTO \
  -- "${server[@]}" --tls=require memory 1M
# No such directory: as in libnbd, it holds nothing, so the system's
# CAs are used, which do not know ours ...
tls_client --certs "$d/missing" --hostname localhost --fail EPROTO \
  -- "${server[@]}" --tls=require memory 1M
# ... and without checking the server it connects, from a URI too.
tls_client --certs "$d/missing" --no-verify --negotiated 1 \
  -- "${server[@]}" --tls=require memory 1M
rm -f "$d/sock"
nbdkit -U "$d/sock" --tls=require --tls-certificates="$d/server" \
  --run "$client --negotiated 1 --uri 'nbds+unix:///?socket=$d/sock&tls-certificates=$d/missing&tls-verify-peer=false'" \
  memory 1M
# The server wants a client certificate and we have none: with TLS
# 1.3 its alert comes after our side of the handshake is done, and it
# hangs up at once, so our next option reads the alert (EPROTO), finds
# the server gone (EPIPE) or is reset (ECONNRESET), whichever the race
# gives.  Never a connection.
tls_client --certs "$d/anon" --hostname localhost \
  --fail 'EPROTO|EPIPE|ECONNRESET' \
  -- "${server[@]}" --tls=require --tls-verify-peer memory 1M
echo "$0: OK"
