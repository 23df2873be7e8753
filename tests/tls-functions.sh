# tls-functions.sh: make TLS credentials for the tls-*.sh tests (source
# it).  Everything lives in a fresh directory that is removed at exit.

source "$(dirname "${BASH_SOURCE[0]}")/functions.sh"

tls_tmpdir ()
{
  tls_dir="$(mktemp -d /tmp/libnbd-tls.XXXXXX)"
  cleanup_fn rm -rf "$tls_dir"
}

# tls_setup SERVER CREDENTIALS...: skip the test without SERVER (nbdkit
# or qemu-nbd), then make a fresh $tls_dir, also known as $d, holding
# each of CREDENTIALS (psk, pki).
tls_setup ()
{
  local what
  requires "$1" --version
  shift
  tls_tmpdir
  for what in "$@"; do
    "tls_make_$what"
  done
  d="$tls_dir"
}

# $tls_dir/keys.psk holds alice's key; wrong.psk a different key for
# alice; bob.psk a key for a user the server does not know.
tls_make_psk ()
{
  requires psktool --version
  psktool -u alice -p "$tls_dir/keys.psk" >/dev/null
  psktool -u alice -p "$tls_dir/wrong.psk" >/dev/null
  psktool -u bob -p "$tls_dir/bob.psk" >/dev/null
}

# One CA key and self-signed certificate in directory $1, named $2,
# with a key of type $3 (certtool's --key-type, default ecdsa).
_tls_ca ()
{
  certtool --generate-privkey --key-type="${3:-ecdsa}" > "$1/ca-key.pem" \
    2>/dev/null
  printf 'cn = %s\nca\ncert_signing_key\nexpiration_days = 2\n' "$2" \
    > "$1/ca.info"
  certtool --generate-self-signed --load-privkey "$1/ca-key.pem" \
    --template "$1/ca.info" --outfile "$1/ca-cert.pem" 2>/dev/null
}

# A key (of type $5, default ecdsa) and a certificate signed by the CA
# in $1: name $2 in $3 with the template lines $4.
_tls_cert ()
{
  certtool --generate-privkey --key-type="${5:-ecdsa}" > "$3/$2-key.pem" \
    2>/dev/null
  printf "%b" "$4" > "$3/$2.info"
  certtool --generate-certificate --load-ca-certificate "$1/ca-cert.pem" \
    --load-ca-privkey "$1/ca-key.pem" --load-privkey "$3/$2-key.pem" \
    --template "$3/$2.info" --outfile "$3/$2-cert.pem" 2>/dev/null
}

# A PKI: $tls_dir/ca (the CA), server (for nbdkit and qemu-nbd: a
# certificate for the name localhost only), client (a client
# certificate), anon (the CA only, no client certificate), noca (the
# client certificate but no CA: as in libnbd such a directory is passed
# over, so the system's CAs are used and no client certificate), other
# (a different CA that signed nothing here).
tls_make_pki ()
{
  local d="$tls_dir"
  requires certtool --version
  mkdir "$d/ca" "$d/server" "$d/client" "$d/anon" "$d/other"
  _tls_ca "$d/ca" "libnbd test CA"
  _tls_cert "$d/ca" server "$d/server" \
    'organization = libnbd test\ncn = localhost\ndns_name = localhost\ntls_www_server\nencryption_key\nsigning_key\nexpiration_days = 2\n'
  _tls_cert "$d/ca" client "$d/client" \
    'organization = libnbd test\ncn = client\ntls_www_client\nencryption_key\nsigning_key\nexpiration_days = 2\n'
  cp "$d/ca/ca-cert.pem" "$d/server/"
  cp "$d/ca/ca-cert.pem" "$d/client/"
  cp "$d/ca/ca-cert.pem" "$d/anon/"
  mkdir "$d/noca"
  cp "$d/client/client-cert.pem" "$d/client/client-key.pem" "$d/noca/"
  _tls_ca "$d/other" "some other CA"
  rm "$d/other/ca-key.pem"
}

# tls_client ARGS...: run the test client under valgrind if asked, and
# never for long: a hang is a failure.
tls_client ()
{
  echo "== tls-client $*"
  timeout 60 $VG "${builddir:-.}/tls-client" "$@"
}
