#!/bin/bash -
# bench/tls-cipher.sh: the dense TLS copy of issue 32.  nbdcopy of
# SIZE of dense data (nbdkit sparse-random percent=100 behind the
# noextents filter, TLS required) by ours, libnbd 1.24.4 (Debian sid,
# unpacked), 1.22.2 (Debian 13, unpacked) and 1.14.2 (Debian 12, the
# system's), each its own nbdcopy, with a pre-shared key
# and with X.509 certificates, to null: and back to the same server
# (nbd to nbd: sparse-random fails any write that differs from what it
# serves).  Run by hand from a built tree; see bench/README.md.
#
# Per case (credentials x destination): WARMUP untimed rounds, then
# ROUNDS rounds, each running the clients (LIBS) once in an order
# rotated by one each round, each against a fresh nbdkit started on its
# own, so that the client is timed alone (bench/timeit.py: elapsed,
# user + sys of the client) and the server's CPU is read from
# /proc/PID/stat before it is stopped.  Before timing, each client's
# negotiated cipher is read from its LIBNBD_DEBUG output.  Prints every
# run, then a markdown table of the medians and of the median per-round
# ratio of BASE's wall time to each client's.
#
# Settings (environment): ROUNDS (3), WARMUP (1), SIZE (2G),
# CASES ("psk-null psk-nbd x509-null x509-nbd x509-no256-null";
# x509-no256-*: the server has no AES-256-GCM), PEER13 (where
# libnbd 1.22.2 is unpacked: /var/cache/libnbd-peers/debian13),
# PEERSID (libnbd 1.24.4: /var/cache/libnbd-peers/debian-sid),
# LIBS ("ours 1.24.4 1.22.2 1.14.2": the clients, each run once a
# round), BASE (1.24.4, or the first of LIBS after ours: the library
# the last column divides by), BUILDDIR as in functions.sh.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-3}"
warmup="${WARMUP:-1}"
size="${SIZE:-2G}"
read -r -a cases <<<"${CASES:-psk-null psk-nbd x509-null x509-nbd x509-no256-null}"
peer13="${PEER13:-/var/cache/libnbd-peers/debian13}"
peersid="${PEERSID:-/var/cache/libnbd-peers/debian-sid}"
read -r -a libs <<<"${LIBS:-ours 1.24.4 1.22.2 1.14.2}"
base="${BASE:-${libs[1]:-ours}}"
nlibs=${#libs[@]}

require nbdkit psktool certtool python3 awk sort /usr/bin/time \
        /usr/bin/nbdcopy /usr/bin/nbdinfo
for lib in "${libs[@]}"; do
  case "$lib" in
    ours|1.14.2) ;;
    1.22.2) [ -x "$peer13/nbdcopy" ] && [ -x "$peer13/nbdinfo" ] ||
              die "no libnbd 1.22.2 at $peer13 (set PEER13)" ;;
    1.24.4) [ -x "$peersid/nbdcopy" ] && [ -x "$peersid/nbdinfo" ] ||
              die "no libnbd 1.24.4 at $peersid (set PEERSID)" ;;
    *) die "LIBS: unknown library '$lib' (ours 1.24.4 1.22.2 1.14.2)" ;;
  esac
done
ours_libdir="$builddir/lib/.libs"
[ -x "$builddir/copy/.libs/nbdcopy" ] && [ -x "$builddir/info/.libs/nbdinfo" ] ||
  die "build the tree first"

base_env=(env -u LD_LIBRARY_PATH -u LD_PRELOAD -u LIBNBD_DEBUG
          "${unfair_env[@]}")

# tool LIB PROGRAM [VAR=VALUE...]: set prefix to the words that run
# LIB's PROGRAM (nbdcopy or nbdinfo), with the variables given.
tool ()
{
  local lib="$1" prog="$2"
  shift 2
  case "$lib" in
    ours) prefix=("${base_env[@]}" "$@" "LD_LIBRARY_PATH=$ours_libdir"
                  "$builddir/${prog#nbd}/.libs/$prog") ;;
    1.24.4) prefix=("${base_env[@]}" "$@" "$peersid/$prog") ;;
    1.22.2) prefix=("${base_env[@]}" "$@" "$peer13/$prog") ;;
    1.14.2) prefix=("${base_env[@]}" "$@" "/usr/bin/$prog") ;;
  esac
}

tmpdir="$(mktemp -d)"
sock="$tmpdir/sock"
server_pid=
trap 'stop_server; rm -rf "$tmpdir"' EXIT
trap 'exit 130' INT TERM

# ---- credentials ----------------------------------------------------

psktool -u bench -p "$tmpdir/keys.psk" >/dev/null
mkdir "$tmpdir/server" "$tmpdir/client"
certtool --generate-privkey --key-type=ecdsa >"$tmpdir/ca-key.pem" 2>/dev/null
printf 'cn = bench CA\nca\ncert_signing_key\nexpiration_days = 2\n' \
  >"$tmpdir/ca.info"
certtool --generate-self-signed --load-privkey "$tmpdir/ca-key.pem" \
  --template "$tmpdir/ca.info" --outfile "$tmpdir/server/ca-cert.pem" \
  2>/dev/null
cp "$tmpdir/server/ca-cert.pem" "$tmpdir/client/"
certtool --generate-privkey --key-type=ecdsa \
  >"$tmpdir/server/server-key.pem" 2>/dev/null
printf 'cn = localhost\ndns_name = localhost\ntls_www_server\nencryption_key\nsigning_key\nexpiration_days = 2\n' \
  >"$tmpdir/server.info"
certtool --generate-certificate --load-ca-certificate "$tmpdir/server/ca-cert.pem" \
  --load-ca-privkey "$tmpdir/ca-key.pem" \
  --load-privkey "$tmpdir/server/server-key.pem" \
  --template "$tmpdir/server.info" --outfile "$tmpdir/server/server-cert.pem" \
  2>/dev/null

# A server without AES-256-GCM (many policies keep AES-128 only), the
# X.509 case where the client's order decides between AES-128-GCM and
# ChaCha20.
printf '[overrides]\ntls-disabled-cipher = AES-256-GCM\n' >"$tmpdir/no256.cfg"

# creds CASE: set server_tls (nbdkit's options), server_cfg (its
# GnuTLS system priority file) and uri.
creds ()
{
  server_cfg=/dev/null
  case "$1" in *-no256-*) server_cfg="$tmpdir/no256.cfg" ;; esac
  case "$1" in
    psk-*)
      server_tls=(--tls=require --tls-psk="$tmpdir/keys.psk")
      uri="nbds+unix://bench@/?socket=$sock&tls-psk-file=$tmpdir/keys.psk" ;;
    x509-*)
      server_tls=(--tls=require --tls-certificates="$tmpdir/server")
      uri="nbds+unix:///?socket=$sock&tls-certificates=$tmpdir/client&tls-verify-peer=false" ;;
  esac
}

# ---- runs -----------------------------------------------------------

# The server of every case: dense data, no extents, restricted by
# this case's GnuTLS priority file.
start_tls_server ()
{
  GNUTLS_SYSTEM_PRIORITY_FILE="$server_cfg" \
    start_server "${server_tls[@]}" --filter=noextents \
                 sparse-random "size=$size" seed=1 percent=100
}

# The server's user + sys time so far, in seconds.
server_cpu ()
{
  sed 's/.*) //' "/proc/$server_pid/stat" |
    awk -v hz="$clk_tck" '{ printf "%.3f", ($12 + $13) / hz }'
}

# cipher CASE LIB: the cipher LIB's nbdinfo negotiates, from its debug
# line (ours: "TLS handshake done: (...)-(CIPHER), kTLS ...";
# libnbd's: "connection is using TLS: cipher CIPHER (...").
cipher ()
{
  creds "$1"
  start_tls_server
  tool "$2" nbdinfo LIBNBD_DEBUG=1
  "${prefix[@]}" --size "$uri" 2>&1 >/dev/null |
    sed -n -e 's/.*TLS handshake done: .*(\([^)]*\)), kTLS.*/\1/p' \
           -e 's/.*using TLS: cipher \([^ ]*\) .*/\1/p' | head -1
  stop_server
}

# run_one CASE LIB: one timed copy; sets wall, cpu, scpu (seconds).
run_one ()
{
  local t="$tmpdir/time" rc=0 dst=null:

  creds "$1"
  case "$1" in *-nbd) dst="$uri" ;; esac
  start_tls_server
  tool "$2" nbdcopy
  python3 "$bench_dir/timeit.py" "$t" "${prefix[@]}" "$uri" "$dst" \
          >"$tmpdir/out" 2>&1 || rc=$?
  scpu="$(server_cpu)"
  stop_server
  if [ "$rc" -ne 0 ]; then
    cat "$tmpdir/out" "$tmpdir/pid.err" >&2
    die "$1 on $2 failed (status $rc)"
  fi
  IFS=, read -r wall _ user sys <"$t"
  cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')"
}

results="$tmpdir/results"       # case round lib wall cpu scpu
: >"$results"
declare -A negotiated
echo "tls-cipher.sh: ROUNDS=$rounds WARMUP=$warmup SIZE=$size" \
     "CASES='${cases[*]}' LIBS='${libs[*]}' BASE=$base bench/tls-cipher.sh"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${cases[@]}"; do
  creds "$c"
  echo
  echo "== $c: nbdcopy of sparse-random $size percent=100 (noextents)" \
       "$( [ "$server_cfg" = /dev/null ] || echo "(server without AES-256-GCM)")" \
       "to $( case "$c" in *-nbd) echo the same server ;; *) echo null: ;; esac)"
  for lib in "${libs[@]}"; do
    negotiated[$c:$lib]="$(cipher "$c" "$lib")"
    echo "$lib negotiates ${negotiated[$c:$lib]:-?}"
  done
  printf '%-6s %-7s %9s %9s %9s\n' round lib "wall s" "CPU s" "server s"
  for ((r = 1 - warmup; r <= rounds; r++)); do
    for ((k = 0; k < nlibs; k++)); do
      lib="${libs[$(( ((r - 1 + k) % nlibs + nlibs) % nlibs ))]}"
      run_one "$c" "$lib"
      label="$r"
      [ "$r" -gt 0 ] || label=warm
      [ "$r" -le 0 ] || echo "$c $r $lib $wall $cpu $scpu" >>"$results"
      printf '%-6s %-7s %9.3f %9.3f %9.3f\n' "$label" "$lib" "$wall" \
             "$cpu" "$scpu"
    done
  done
done

# column CASE LIB N: field N (4 wall, 5 cpu, 6 server) per round.
column ()
{
  awk -v c="$1" -v l="$2" -v n="$3" '$1 == c && $3 == l { print $2, $n }' \
      "$results" | sort -n | cut -d' ' -f2
}

echo
echo "| case | client | cipher | wall s | client CPU s | server CPU s | $base wall / this |"
echo "|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  for lib in "${libs[@]}"; do
    ratio="$(paste -d' ' <(column "$c" "$base" 4) <(column "$c" "$lib" 4) |
             awk '{ printf "%.3f\n", $1 / $2 }' | median)"
    printf '| %s | %s | %s | %.2f | %.2f | %.2f | %.2f |\n' "$c" "$lib" \
           "${negotiated[$c:$lib]:-?}" \
           "$(column "$c" "$lib" 4 | median)" \
           "$(column "$c" "$lib" 5 | median)" \
           "$(column "$c" "$lib" 6 | median)" "$ratio"
  done
done
echo "(medians of $rounds rounds; load now $(cut -d' ' -f1-3 /proc/loadavg))"
