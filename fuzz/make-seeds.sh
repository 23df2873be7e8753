#!/bin/bash -
# make-seeds.sh: record the seed corpora: what nbdkit, tests/fake-server
# and tests/ext-server send while the fuzzers' workloads run against
# them.  Run from the build tree's fuzz/ after make check (it needs
# record, ../tests/fake-server and ../tests/ext-server).
# Usage: make-seeds.sh [CORPUS [TLS-CORPUS]]
set -euo pipefail
out=${1:-corpus}
mkdir -p "$out"
run=../run

$run ./record "$out"/nbdkit-memory nbdkit -s memory 1M
$run ./record "$out"/nbdkit-data nbdkit -s data '1 @65536 2 @524288 3' size=1M
$run ./record "$out"/nbdkit-ro-sparse nbdkit -s -r sparse-random 1M
$run ./record "$out"/nbdkit-error nbdkit -s --filter=error memory 1M \
  error-rate=100% error=EIO error-pread-rate=0
for s in good short overlap out-of-range error-chunk block-status-bad \
         unknown-cookie no-go; do
  $run ./record "$out"/fake-$s ../tests/fake-server $s
done

# Extended headers: tests/ext-server, the client asking for them.
for s in good bs-count bs-zero bs-flags64 bs-narrow wrong-offset \
         unknown-cookie data-outside read-hole read-error read-error-offset \
         huge-length bs-odd bs-past-end no-payload; do
  FUZZ_EXTENDED=1 $run ./record "$out"/ext-$s ../tests/ext-server $s
done

# Scripted replies (see tests/fake-script.c): chunk types the servers
# above rarely send, so the fuzzer starts from each of them.
H='u32:cmagic u16:1'
script ()
{
  $run ./record "$out/script-$1" ../tests/fake-server script "$2" "$3"
}
script hole read "$H u16:2 u64:cookie u32:12 u64:off u32:count"
script error-offset read "$H u16:0x8002 u64:cookie u32:14 u32:5 u16:0 u64:off"
script error read "$H u16:0x8001 u64:cookie u32:9 u32:5 u16:3 str:abc"
script unknown-type read "$H u16:100 u64:cookie u32:4 u32:0 good"
script bs-extents bs "$H u16:5 u64:cookie u32:20 u32:1 u32:512 u32:0 u32:65024 u32:3"
script list-error list "u64:omagic u32:opt u32:0x80000002 u32:2 str:no"
script info-name info "u64:omagic u32:opt u32:3 u32:5 u16:1 str:abc good"
ls -l "$out"

# TLS (fuzz-tls, in ${2:-tls-corpus}): nbdkit's side of each handshake,
# less the greeting and the STARTTLS ACK (fuzz-tls sends those itself),
# after a first byte saying how the client went at it (see workload.h).
tls_out=${2:-tls-corpus}
mkdir -p "$tls_out"
tls_dir=$(mktemp -d)
trap 'rm -rf "$tls_dir"' EXIT
# The key fuzz-tls's client has (tls-workload.c).
echo fuzz:8d954399b9b28a4696b0788ce59c2fad8e47d7a521f3bd95008b82383b4ba92e \
  > "$tls_dir/keys.psk"
# A server certificate from a CA of its own: the client will not trust it.
certtool --generate-privkey --key-type=ecdsa > "$tls_dir/ca-key.pem" 2>/dev/null
printf 'cn = seed CA\nca\ncert_signing_key\nexpiration_days = 2\n' \
  > "$tls_dir/ca.info"
certtool --generate-self-signed --load-privkey "$tls_dir/ca-key.pem" \
  --template "$tls_dir/ca.info" --outfile "$tls_dir/ca-cert.pem" 2>/dev/null
certtool --generate-privkey --key-type=ecdsa > "$tls_dir/server-key.pem" \
  2>/dev/null
printf '%s\n' 'cn = localhost' 'dns_name = localhost' tls_www_server \
  signing_key 'expiration_days = 2' > "$tls_dir/server.info"
certtool --generate-certificate --load-ca-certificate "$tls_dir/ca-cert.pem" \
  --load-ca-privkey "$tls_dir/ca-key.pem" \
  --load-privkey "$tls_dir/server-key.pem" \
  --template "$tls_dir/server.info" --outfile "$tls_dir/server-cert.pem" \
  2>/dev/null
tls_seed ()
{
  local name=$1 mode=$2
  shift 2
  FUZZ_TLS=$mode $run ./record "$tls_dir/raw" nbdkit -s --tls=require "$@" \
    memory 1M
  { printf "\\x$mode"; tail -c +39 "$tls_dir/raw"; } > "$tls_out/$name"
}
for mode in 0 2; do
  tls_seed psk-$mode $mode --tls-psk="$tls_dir/keys.psk"
done
for mode in 1 3; do
  tls_seed x509-$mode $mode --tls-certificates="$tls_dir"
done
ls -l "$tls_out"
