#!/bin/bash -
# tls-cipher-order.sh: which cipher each TLS session negotiates.  On a
# CPU with AES instructions AES-GCM must come before ChaCha20-Poly1305,
# with pre-shared keys and with X.509, over TLS 1.3 and 1.2; a server
# that has only ChaCha20 or only AES-256-GCM still connects; without
# fast AES (GnuTLS's AES-NI and nettle's turned off) and under a
# system-wide priority file our order gives way to GnuTLS's; a string
# the program sets is used as it is.
#
# The servers are restricted to one cipher, or to TLS 1.2: nbdkit by a
# GnuTLS system priority file of its own, qemu-nbd by a priority
# string.  The client reports the cipher on its "TLS handshake done"
# debug line.
set -euo pipefail
source "${srcdir:-.}/tls-functions.sh"
tls_setup nbdkit psk pki
requires gnutls-cli --version

# Every cipher of GnuTLS's NORMAL, for the files that leave one.
read -r -a normal_ciphers < <(
  gnutls-cli -l --priority NORMAL |
    sed -n 's/^Ciphers: //p' | tr -d ,)
[ "${#normal_ciphers[@]}" -ge 3 ] || {
  echo "$0: cannot list GnuTLS's NORMAL ciphers"; exit 1; }

# server_cfg NAME CIPHER|all [VERSION-TO-DISABLE...]: $d/NAME.cfg, a
# system priority file that leaves the server CIPHER alone.
server_cfg ()
{
  local f="$d/$1.cfg" keep="$2" c v
  shift 2
  echo "[overrides]" > "$f"
  for c in "${normal_ciphers[@]}"; do
    [ "$keep" = all ] || [ "$c" = "$keep" ] ||
      echo "tls-disabled-cipher = $c" >> "$f"
  done
  for v in "$@"; do echo "disabled-version = $v" >> "$f"; done
}
server_cfg chacha CHACHA20-POLY1305
server_cfg aes256 AES-256-GCM
server_cfg tls12 all TLS1.3
server_cfg aes256-tls12 AES-256-GCM TLS1.3
# No AES-256-GCM: what a client then gets is its own second choice.
printf '[overrides]\ntls-disabled-cipher = AES-256-GCM\n' > "$d/no256.cfg"
printf '[overrides]\ntls-disabled-cipher = AES-256-GCM\ndisabled-version = TLS1.3\n' \
  > "$d/no256-tls12.cfg"

# nbdkit restricted by $d/$1.cfg ("none": not restricted), TLS
# required, with the credentials $2 (psk or x509).
server ()
{
  local cfg=/dev/null creds
  [ "$1" = none ] || cfg="$d/$1.cfg"
  case "$2" in
    psk) creds=(--tls-psk="$d/keys.psk") ;;
    x509) creds=(--tls-certificates="$d/server") ;;
  esac
  server_argv=(env GNUTLS_SYSTEM_PRIORITY_FILE="$cfg" nbdkit -s
               --exit-with-parent --tls=require "${creds[@]}" memory 1M)
}

# negotiated CFG CREDS: connect, move data, and set session to the
# client's description of the session, e.g. (TLS1.3)-(...)-(AES-128-GCM).
negotiated ()
{
  local client_creds
  case "$2" in
    psk) client_creds=(--psk "$d/keys.psk" --user alice) ;;
    x509) client_creds=(--certs "$d/client" --hostname localhost) ;;
  esac
  server "$1" "$2"
  [ -z "${TLS_CLIENT_PRIORITY:-}" ] ||
    client_creds+=(--priority "$TLS_CLIENT_PRIORITY")
  LIBNBD_DEBUG=1 tls_client "${client_creds[@]}" --negotiated 1 \
    -- "${server_argv[@]}" 2> "$d/debug"
  session="$(sed -n 's/.*TLS handshake done: \(.*\), kTLS.*/\1/p' \
             "$d/debug")"
  echo "   $1 $2: $session"
  [ -n "$session" ] || { cat "$d/debug"; exit 1; }
}

# expect CFG CREDS CIPHER [KX]: the session uses CIPHER (and KX).
expect ()
{
  negotiated "$1" "$2"
  case "$session" in
    *"($3)") ;;
    *) echo "$0: $1 $2: expected $3, got $session"; exit 1 ;;
  esac
  if [ $# -ge 4 ]; then
    case "$session" in
      *"($4-"*) ;;
      *) echo "$0: $1 $2: expected key exchange $4, got $session"; exit 1 ;;
    esac
  fi
}

# The test's own view of the CPU, independent of the library's
# (which times the two ciphers): AES and carry-less multiply, as
# GnuTLS needs for its fast AES-GCM.
fast_aes=no
case "$(uname -m)" in
  x86_64|i?86)
    grep -qw aes /proc/cpuinfo && grep -qw pclmulqdq /proc/cpuinfo &&
      fast_aes=yes ;;
  aarch64)
    grep -qw aes /proc/cpuinfo && grep -qw pmull /proc/cpuinfo &&
      fast_aes=yes ;;
esac
# Under valgrind the library's timing sees valgrind's speeds, not the
# CPU's: there take its own verdict, from the debug line.
if [ -n "${VG:-}" ]; then
  negotiated none psk
  if grep -q "TLS priority: the default with" "$d/debug"; then
    fast_aes=yes
  else
    fast_aes=no
  fi
  echo "under valgrind, the library's verdict:"
fi
echo "CPU accelerates AES: $fast_aes"

if [ "$fast_aes" = yes ]; then
  # TLS 1.3 with a pre-shared key can only use a SHA-256 suite, so
  # AES-256-GCM-SHA384 is out: AES-128-GCM, not ChaCha20.
  expect none psk AES-128-GCM
  # X.509: AES-256-GCM, and without it AES-128-GCM, over 1.3 and 1.2.
  expect none x509 AES-256-GCM
  expect no256 x509 AES-128-GCM
  expect no256-tls12 x509 AES-128-GCM ECDHE
  expect tls12 x509 AES-256-GCM ECDHE
else
  # GnuTLS's own order.
  expect none psk CHACHA20-POLY1305
fi

# TLS 1.2 with a pre-shared key: GnuTLS has no ECDHE-PSK suite with
# AES-GCM, and DHE-PSK, which has, gets a 2048-bit group from nbdkit
# (112-bit strength, against 128 for the elliptic curves): ECDHE-PSK
# stays first, whatever its cipher.
expect tls12 psk CHACHA20-POLY1305 ECDHE

# A server with one cipher: ChaCha20 only, AES-256-GCM only.
expect chacha psk CHACHA20-POLY1305
expect chacha x509 CHACHA20-POLY1305
expect aes256 x509 AES-256-GCM
# With a pre-shared key AES-256-GCM works over TLS 1.2 only (DHE-PSK):
# GnuTLS 3.7's SHA-256 binders rule out AES-256-GCM-SHA384 in 1.3,
# for every client.
expect aes256-tls12 psk AES-256-GCM DHE

# qemu-nbd restricted by a priority string of its own (tls-creds
# priority=): ChaCha20 only; and ChaCha20 listed first, where GnuTLS's
# server still follows the client's order.
if qemu-nbd --version >/dev/null 2>&1; then
  mkdir "$d/qpsk"
  cp "$d/keys.psk" "$d/qpsk/"
  truncate -s 1M "$d/disk.img"
  # qemu_expect PRIORITY CIPHER: a fresh qemu-nbd (-t: it serves
  # every client) with PRIORITY, for one client that must get CIPHER.
  qemu_expect ()
  {
    local i qemu_pid

    rm -f "$d/qsock" "$d/qsock.pid"
    qemu-nbd -t -k "$d/qsock" --pid-file="$d/qsock.pid" -f raw \
      --tls-creds tls0 --object \
      "tls-creds-psk,id=tls0,endpoint=server,dir=$d/qpsk,priority=$1:+ECDHE-PSK:+DHE-PSK:+PSK" \
      "$d/disk.img" &
    qemu_pid=$!
    cleanup_fn "kill $qemu_pid 2>/dev/null"
    wait_for_file "$d/qsock.pid" qemu-nbd
    LIBNBD_DEBUG=1 tls_client --negotiated 1 \
      --uri "nbds+unix://alice@/?socket=$d/qsock&tls-psk-file=$d/keys.psk" \
      2> "$d/debug" || { kill $qemu_pid; cat "$d/debug"; exit 1; }
    kill $qemu_pid
    wait $qemu_pid || :
    session="$(sed -n 's/.*TLS handshake done: \(.*\), kTLS.*/\1/p' \
               "$d/debug")"
    echo "   qemu-nbd $1: $session"
    case "$session" in
      *"($2)") ;;
      *) echo "$0: qemu-nbd $1: expected $2, got $session"; exit 1 ;;
    esac
  }
  qemu_expect NORMAL:-CIPHER-ALL:+CHACHA20-POLY1305 CHACHA20-POLY1305
  if [ "$fast_aes" = yes ]; then
    qemu_expect NORMAL:-CIPHER-ALL:+CHACHA20-POLY1305:+AES-128-GCM \
      AES-128-GCM
  fi
else
  echo "qemu-nbd is not installed: its cases are skipped"
fi

# Without fast AES, GnuTLS's order.  GNUTLS_CPUID_OVERRIDE=0x1 turns off
# GnuTLS's AES-NI code, NETTLE_FAT_OVERRIDE=none nettle's, leaving AES
# in plain C, several times slower than ChaCha20.
case "$(uname -m)" in
  x86_64)
    GNUTLS_CPUID_OVERRIDE=0x1 NETTLE_FAT_OVERRIDE=none \
      expect none psk CHACHA20-POLY1305
    grep -q "GnuTLS's cipher order kept" "$d/debug" || {
      cat "$d/debug"; echo "$0: no debug line for the order kept"; exit 1; }
    ;;
esac

# A system-wide priority file on the client (the server always has a
# file of its own, /dev/null for "none").
# A cipher it disables stays disabled ...
printf '[overrides]\ntls-disabled-cipher = AES-128-GCM\n' > "$d/client1.cfg"
GNUTLS_SYSTEM_PRIORITY_FILE="$d/client1.cfg" \
  expect none psk CHACHA20-POLY1305
# ... and a default-priority-string of its own stops the reordering,
# but is not used either: as in libnbd the default is the string
# NORMAL, here with GnuTLS's order (AES-256-GCM, ChaCha20, AES-128-GCM).
printf '[overrides]\ndefault-priority-string = %s\n' \
  'NORMAL:-CIPHER-ALL:+CHACHA20-POLY1305:+AES-128-GCM:+AES-256-GCM' \
  > "$d/client2.cfg"
GNUTLS_SYSTEM_PRIORITY_FILE="$d/client2.cfg" \
  expect none psk CHACHA20-POLY1305
grep -q "the default priorities are not GnuTLS's NORMAL" "$d/debug" || {
  cat "$d/debug"; echo "$0: no debug line for NORMAL kept"; exit 1; }
GNUTLS_SYSTEM_PRIORITY_FILE="$d/client2.cfg" \
  expect none x509 AES-256-GCM

# A priority string the program sets is used exactly as given, with
# the PSK key exchanges appended for a pre-shared key.
chacha_first='NORMAL:-CIPHER-ALL:+CHACHA20-POLY1305:+AES-128-GCM:+AES-256-GCM'
TLS_CLIENT_PRIORITY="$chacha_first" expect none x509 CHACHA20-POLY1305
grep -q "TLS priority: $chacha_first (set for this handle)" "$d/debug" || {
  cat "$d/debug"; echo "$0: the string set was not used"; exit 1; }
TLS_CLIENT_PRIORITY="$chacha_first" expect none psk CHACHA20-POLY1305
grep -q "TLS priority: $chacha_first:+ECDHE-PSK:+DHE-PSK:+PSK " "$d/debug" || {
  cat "$d/debug"; echo "$0: PSK key exchanges not appended"; exit 1; }
TLS_CLIENT_PRIORITY='NORMAL:-CIPHER-ALL:+AES-128-GCM' \
  expect none x509 AES-128-GCM
# A string GnuTLS refuses fails the connection, naming the string.
server none psk
tls_client --psk "$d/keys.psk" --user alice --priority 'NORMAL:+BOGUS' \
  --fail EINVAL -- "${server_argv[@]}" 2> "$d/err"
grep -q 'gnutls_priority_set_direct: NORMAL:+BOGUS:+ECDHE-PSK' "$d/err" || {
  cat "$d/err"; echo "$0: no error naming the priority string"; exit 1; }
echo "$0: OK"
