#!/bin/bash -
# tls-pq-groups.sh: post-quantum key exchange where the GnuTLS in use
# offers it, a classical group where it does not.  As libnbd 1.24, we
# add no group to the priorities: the session's groups are those GnuTLS
# and its configuration offer.  The debug messages say which group each
# session used and which post-quantum groups this GnuTLS knows; that
# list must agree with gnutls-cli's, and the group with GnuTLS's own
# description of the session.  Where GnuTLS knows a post-quantum group
# and nbdkit takes --tls-priority, a server that allows only that group
# either gets it or refuses us cleanly.  Where Debian sid's GnuTLS 3.8
# is unpacked (scripts/peer-libnbd-1.24.sh) our library runs on it too.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit pki psk
requires gnutls-cli --version
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}

# The post-quantum groups a GnuTLS knows, as our debug message lists
# them ("A, B"), from gnutls-cli --list.
known_by ()
{
  "$@" --list | sed -n 's/^Groups: //p' | tr ',' '\n' |
    sed 's/^ *GROUP-//' | grep -E 'MLKEM|KYBER' | paste -s -d, |
    sed 's/,/, /g' || :
}

# check_session LOG KNOWN: the session in LOG used the group our debug
# message names, which GnuTLS's description of the session names too,
# and the message says what KNOWN says of post-quantum groups ('?':
# whatever GnuTLS knows).
check_session ()
{
  local log="$1" known="$2" line group
  line=$(grep 'TLS key exchange: ' "$log")
  echo "$line"
  group=$(sed -n 's/.*TLS key exchange: group \([^,]*\),.*/\1/p' <<<"$line")
  test -n "$group"
  # GnuTLS 3.7 describes a TLS 1.3 PSK session without its group.
  grep -q -e "TLS handshake done: .*-$group)" \
    -e "TLS handshake done: (TLS1.3)--" "$log"
  if [ "$known" = '?' ]; then
    grep -q -e "group $group, post-quantum\$" \
      -e "group $group, not post-quantum: GnuTLS .* here knows" <<<"$line"
  elif [ -z "$known" ]; then
    grep -q "group $group, not post-quantum: GnuTLS .* here knows no" \
      <<<"$line"
  else
    grep -q -e "group $group, post-quantum\$" \
      -e "here knows $known, which" <<<"$line"
  fi
}

# try LOADER... -- KNOWN: X.509 and PSK sessions against nbdkit, with
# tls-client started by LOADER (nothing: the system's GnuTLS, under
# valgrind if asked).
try ()
{
  local run=() known
  while [ "$1" != -- ]; do run+=("$1"); shift; done
  known="$2"
  [ ${#run[@]} -gt 0 ] || run=($VG)
  echo "== post-quantum groups known: ${known:-none}"
  LIBNBD_DEBUG=1 timeout 60 "${run[@]}" "${builddir:-.}/tls-client" \
    --certs "$d/client" --hostname localhost --negotiated 1 \
    -- nbdkit -s --exit-with-parent --tls=require --tls-verify-peer \
    --tls-certificates="$d/server" memory 1M 2> "$d/x509.log"
  check_session "$d/x509.log" "$known"
  LIBNBD_DEBUG=1 timeout 60 "${run[@]}" "${builddir:-.}/tls-client" \
    --psk "$d/keys.psk" --user alice --negotiated 1 \
    -- nbdkit -s --exit-with-parent --tls=require \
    --tls-psk="$d/keys.psk" memory 1M 2> "$d/psk.log"
  check_session "$d/psk.log" "$known"
}

known=$(known_by gnutls-cli)
try -- "$known"

# A server that allows nothing but a post-quantum group: it gets it if
# our default priorities offer it, else it refuses us cleanly.
if [ -z "$known" ]; then
  echo "$0: GnuTLS here knows no post-quantum group: no server insists on one"
elif ! nbdkit --help 2>&1 | grep -q -- --tls-priority; then
  echo "$0: nbdkit takes no --tls-priority: no server insists on one"
else
  group=${known%%,*}
  pq_only=(nbdkit -s --exit-with-parent --tls=require
           --tls-certificates="$d/server"
           --tls-priority="NORMAL:-GROUP-ALL:+GROUP-$group" memory 1M)
  if LIBNBD_DEBUG=1 timeout 60 $VG "${builddir:-.}/tls-client" \
       --certs "$d/client" --hostname localhost --negotiated 1 \
       -- "${pq_only[@]}" 2> "$d/pq.log"; then
    grep "TLS key exchange: group $group, post-quantum\$" "$d/pq.log"
  else
    echo "$0: our default priorities do not offer $group"
    tls_client --certs "$d/client" --hostname localhost \
      --fail 'EPROTO|EPIPE|ECONNRESET' -- "${pq_only[@]}"
  fi
fi

# The same library on Debian sid's GnuTLS 3.8 where it is unpacked
# (built without liboqs and leancrypto, it knows no post-quantum group
# either: whatever it knows, the message must say it).
lib="$peer/R/usr/lib/x86_64-linux-gnu"
if ldd "$LIBNBD_BUILT_LIBRARY" | grep -q libasan || [ -n "$VG" ]; then
  echo "$0: AddressSanitizer or valgrind: sid's GnuTLS not tried"
elif [ -e "$lib/libgnutls.so.30" ] && [ -x "$lib/ld-linux-x86-64.so.2" ]; then
  try "$lib/ld-linux-x86-64.so.2" --library-path \
    "$(dirname "$LIBNBD_BUILT_LIBRARY"):$lib:/usr/lib/x86_64-linux-gnu" \
    -- '?'
  grep -q 'GnuTLS 3\.8\.\|here knows [A-Z]\|post-quantum$' "$d/x509.log"
else
  echo "$0: no GnuTLS of Debian sid in $lib: only the system's tried"
fi
echo "$0: OK"
