#!/bin/bash -
# tls-client-certs.sh: several client certificates in the certificates
# directory, as libnbd 1.24 reads them: client-cert-N.pem with
# client-key-N.pem for N = 0, 1, ... beside client-cert.pem, each
# loaded, so that GnuTLS sends the one the server's request fits (its
# CA, its signature algorithms).  The list ends at the first N without
# both files, silently; a key that does not fit its certificate is an
# error; a directory without ca-cert.pem is passed over.  The servers
# are nbdkit with --tls-verify-peer; every certificate is made here by
# certtool.  Where libnbd 1.24.4 is unpacked (scripts/peer-libnbd-1.24.sh)
# each case runs on it too and must end the same way.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit pki

peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
have_peer=
if ldd "$LIBNBD_BUILT_LIBRARY" | grep -q libasan; then
  echo "$0: the library is built with AddressSanitizer: ours only"
elif [ -x "$peer/run" ] && [ -e "$peer/R/usr/lib/x86_64-linux-gnu/libnbd.so.0" ]
then
  have_peer=1
else
  echo "$0: no libnbd 1.24.4 in $peer (scripts/peer-libnbd-1.24.sh): ours only"
fi

# Certificates: $d/ca is CA A (ECDSA), which signed the servers' and
# client a-ec (the PKI's client); CA B (RSA) signed client b-ec; A
# signed a-rsa too.  server trusts A for clients, server-b trusts B.
tpl='organization = libnbd test\ncn = %s\ntls_www_client\n'
tpl+='encryption_key\nsigning_key\nexpiration_days = 2\n'
mkdir "$d/cab" "$d/certs" "$d/server-b"
_tls_ca "$d/cab" "libnbd test CA B" rsa
# shellcheck disable=SC2059
_tls_cert "$d/ca" a-rsa "$d/certs" "$(printf "$tpl" a-rsa)" rsa
# shellcheck disable=SC2059
_tls_cert "$d/cab" b-ec "$d/certs" "$(printf "$tpl" b-ec)"
cp "$d/client/client-cert.pem" "$d/certs/a-ec-cert.pem"
cp "$d/client/client-key.pem" "$d/certs/a-ec-key.pem"
cp "$d/server/server-cert.pem" "$d/server/server-key.pem" "$d/server-b/"
cp "$d/cab/ca-cert.pem" "$d/server-b/"

# client_dir NAME FILE=AS...: $d/NAME holding CA A's certificate (the
# servers' issuer) and each FILE of $d/certs under the name AS.
client_dir ()
{
  local dir="$d/$1" f
  shift
  mkdir "$dir"
  cp "$d/ca/ca-cert.pem" "$dir/"
  for f in "$@"; do
    cp "$d/certs/${f%%=*}" "$dir/${f#*=}"
  done
}

# connects DIR SERVER-DIR [NBDKIT-OPTIONS...]: a client with DIR
# connects to nbdkit with the certificates of SERVER-DIR, which checks
# ours.  refused DIR SERVER-DIR ...: it does not, and the handshake
# fails as it does for a client with no certificate (with TLS 1.3 the
# server's alert comes after our side is done: EPROTO, EPIPE or
# ECONNRESET, whichever the race gives; 1.24 gives no errno).
nbdkit=nbdkit
server ()
{
  srv_cmd=("$nbdkit" -s --exit-with-parent --tls=require --tls-verify-peer
           --tls-certificates="$d/$1")
}
connects ()
{
  local dir="$d/$1"
  server "$2"
  shift 2
  tls_client --certs "$dir" --hostname localhost --negotiated 1 \
    -- "${srv_cmd[@]}" "$@" memory 1M
  if [ -n "$have_peer" ]; then
    echo "== on libnbd 1.24.4"
    timeout 60 "$peer/run" "${builddir:-.}/tls-client" --certs "$dir" \
      --hostname localhost --negotiated 1 \
      -- "${srv_cmd[@]}" "$@" memory 1M
  fi
}
refused ()
{
  local dir="$d/$1"
  server "$2"
  shift 2
  tls_client --certs "$dir" --hostname localhost \
    --fail 'EPROTO|EPIPE|ECONNRESET' -- "${srv_cmd[@]}" "$@" memory 1M
  if [ -n "$have_peer" ]; then
    echo "== on libnbd 1.24.4"
    timeout 60 "$peer/run" "${builddir:-.}/tls-client" --certs "$dir" \
      --hostname localhost --fail NOERRNO \
      -- "${srv_cmd[@]}" "$@" memory 1M
  fi
}

# Only a numbered certificate, of the right CA: it is sent.
client_dir only0 a-ec-cert.pem=client-cert-0.pem a-ec-key.pem=client-key-0.pem
connects only0 server
# The list starts at 0: a lone client-cert-1.pem is never read.
client_dir only1 a-ec-cert.pem=client-cert-1.pem a-ec-key.pem=client-key-1.pem
refused only1 server

# Two clients' certificates, of CA A (client-cert.pem) and of CA B
# (client-cert-0.pem): each server gets the one its CA signed.
client_dir both a-ec-cert.pem=client-cert.pem a-ec-key.pem=client-key.pem \
  b-ec-cert.pem=client-cert-0.pem b-ec-key.pem=client-key-0.pem
connects both server
connects both server-b
# ... and with A's alone, the server that accepts only B refuses us.
refused only0 server-b

# A gap ends the list: client-cert-2.pem after no client-cert-1.pem is
# not read; with client-cert-1.pem it is (and so are many).
client_dir gap a-ec-cert.pem=client-cert-0.pem a-ec-key.pem=client-key-0.pem \
  b-ec-cert.pem=client-cert-2.pem b-ec-key.pem=client-key-2.pem
refused gap server-b
many=()
for n in 0 1 2 3 4 5 6 7 8 9 10 11; do
  many+=("a-ec-cert.pem=client-cert-$n.pem" "a-ec-key.pem=client-key-$n.pem")
done
client_dir many "${many[@]}" b-ec-cert.pem=client-cert-12.pem \
  b-ec-key.pem=client-key-12.pem
connects many server-b

# A numbered certificate without its key (or a key without its
# certificate) ends the list too, without an error, as in 1.24: B's
# client-cert-1.pem is not read, so server-b refuses us, and a server
# that asks for no certificate takes us.
client_dir nokey b-ec-cert.pem=client-cert-0.pem \
  b-ec-cert.pem=client-cert-1.pem b-ec-key.pem=client-key-1.pem
refused nokey server-b
tls_client --certs "$d/nokey" --hostname localhost --negotiated 1 \
  -- nbdkit -s --exit-with-parent --tls=require \
  --tls-certificates="$d/server-b" memory 1M
client_dir nocert b-ec-key.pem=client-key-0.pem \
  b-ec-cert.pem=client-cert-1.pem b-ec-key.pem=client-key-1.pem
refused nocert server-b

# A key that is not the certificate's is an error before any
# handshake, in 1.24's words, whatever the server wants.
client_dir wrongkey a-ec-cert.pem=client-cert.pem a-ec-key.pem=client-key.pem \
  b-ec-cert.pem=client-cert-0.pem a-ec-key.pem=client-key-0.pem
msg="gnutls_certificate_set_x509_key_file: $d/wrongkey/client-cert-0.pem,"
msg+=" $d/wrongkey/client-key-0.pem:"
msg+=" The certificate and the given key do not match."
for errno in EPROTO NOERRNO; do
  if [ "$errno" = EPROTO ]; then
    run=(timeout 60 $VG "${builddir:-.}/tls-client")
  elif [ -n "$have_peer" ]; then
    run=(timeout 60 "$peer/run" "${builddir:-.}/tls-client")
  else
    continue
  fi
  echo "== ${run[*]} (wrong key)"
  "${run[@]}" --certs "$d/wrongkey" --hostname localhost --fail "$errno" \
    --message "$msg" --max-sent 100 \
    -- nbdkit -s --exit-with-parent --tls=require \
    --tls-certificates="$d/server" memory 1M
done

# A directory without ca-cert.pem is passed over, its client
# certificate with it: even when the server's certificate is not
# checked, a server that wants ours refuses us.
server server
tls_client --certs "$d/noca" --no-verify \
  --fail 'EPROTO|EPIPE|ECONNRESET' -- "${srv_cmd[@]}" memory 1M

# The right kind of key: a server whose priorities sign with RSA only
# (nbdkit's --tls-priority) takes our RSA certificate beside an ECDSA
# one, and refuses the ECDSA one alone.
if nbdkit --help 2>&1 | grep -q -- --tls-priority; then
  nbdkit=nbdkit
elif [ -x "$peer/nbdkit" ]; then
  nbdkit="$peer/nbdkit"
else
  nbdkit=
  echo "$0: no nbdkit with --tls-priority here: key types not tried"
fi
if [ -n "$nbdkit" ]; then
  mkdir "$d/server-rsa"
  stpl='organization = libnbd test\ncn = localhost\ndns_name = localhost\n'
  stpl+='tls_www_server\nencryption_key\nsigning_key\nexpiration_days = 2\n'
  _tls_cert "$d/ca" server "$d/server-rsa" "$stpl" rsa
  cp "$d/ca/ca-cert.pem" "$d/server-rsa/"
  rsa=NORMAL:-SIGN-ALL:+SIGN-RSA-SHA256:+SIGN-RSA-PSS-RSAE-SHA256
  rsa+=:+SIGN-RSA-SHA384:+SIGN-RSA-PSS-RSAE-SHA384
  client_dir kinds a-ec-cert.pem=client-cert.pem a-ec-key.pem=client-key.pem \
    a-rsa-cert.pem=client-cert-0.pem a-rsa-key.pem=client-key-0.pem
  connects kinds server-rsa --tls-priority="$rsa"
  refused client server-rsa --tls-priority="$rsa"
  nbdkit=nbdkit
fi

# The default directories, for a user other than root: $HOME/.pki/libnbd
# without ca-cert.pem is passed over for $HOME/.config/pki/libnbd.
as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv > /dev/null &&
     setpriv --reuid=65534 --regid=65534 --clear-groups \
       test -x "${builddir:-.}/tls-client" -a -r "$LIBNBD_BUILT_LIBRARY"
  then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    as_user=(false)
    echo "$0: root, and user 65534 cannot run tls-client: defaults not tried"
  fi
fi
if [ "${as_user[*]}" != false ]; then
  h="$d/home"
  mkdir -p "$h/.pki/libnbd" "$h/.config/pki/libnbd"
  cp "$d/certs/b-ec-cert.pem" "$h/.pki/libnbd/client-cert.pem"
  cp "$d/certs/b-ec-key.pem" "$h/.pki/libnbd/client-key.pem"
  cp "$d/ca/ca-cert.pem" "$h/.config/pki/libnbd/"
  cp "$d/certs/a-ec-cert.pem" "$h/.config/pki/libnbd/client-cert-0.pem"
  cp "$d/certs/a-ec-key.pem" "$h/.config/pki/libnbd/client-key-0.pem"
  # The other user reads the test's throwaway keys.
  chmod -R a+rX "$d"
  server server
  echo "== tls-client as ${as_user[*]:-$(id -un)}, HOME=$h"
  HOME="$h" timeout 60 "${as_user[@]}" $VG "${builddir:-.}/tls-client" \
    --hostname localhost --negotiated 1 -- "${srv_cmd[@]}" memory 1M
  # Without the CA there either, the system's CAs are used, which do
  # not know ours.
  rm "$h/.config/pki/libnbd/ca-cert.pem"
  HOME="$h" timeout 60 "${as_user[@]}" $VG "${builddir:-.}/tls-client" \
    --hostname localhost --fail EPROTO -- "${srv_cmd[@]}" memory 1M
fi
echo "$0: OK"
