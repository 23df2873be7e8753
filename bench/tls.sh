#!/bin/bash -
# bench/tls.sh: random-I/O throughput over TLS (PSK) against plaintext,
# and against Debian's libnbd over TLS, all in one run.  Run by hand;
# see bench/README.md.
#
# Per workload: one warm-up round, then ROUNDS rounds, each running, with
# a fresh nbdkit memory 1G on a Unix socket for every run:
#   ours-plain  this tree's threaded-reads-and-writes, no TLS
#   ours-tls    the same with -P keys.psk (nbdkit --tls=require)
#   peer-tls    the peer build (Debian libnbd) with -P keys.psk
#   peer-plain  the peer build, no TLS
# Prints each run's requests/s, the per-round ratios ours-tls/ours-plain
# and ours-tls/peer-tls, and their medians.
#
# Settings (environment): ROUNDS (5), THREADS (4), IN_FLIGHT (64),
# MIX_REQUESTS (2000), SMALL_REQUESTS (60000), WORKLOADS ("small mix").

set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
threads="${THREADS:-4}"
in_flight="${IN_FLIGHT:-64}"
mix_requests="${MIX_REQUESTS:-2000}"
small_requests="${SMALL_REQUESTS:-60000}"
workloads="${WORKLOADS:-small mix}"

require nbdkit setsid awk sort psktool
setup_commands
check_libraries

make_tmpdir

psktool -u bench -p "$tmpdir/keys.psk" >/dev/null
tls_server=(--tls=require --tls-psk="$tmpdir/keys.psk")
tls_client=(-P "$tmpdir/keys.psk" -u bench)

# run_one VARIANT ARGS...: one run with a fresh nbdkit; sets ops.
run_one ()
{
  local variant="$1"; shift
  local out="$tmpdir/out" rc=0 server=() client=() prefix bin

  case "$variant" in
    *-tls) server=("${tls_server[@]}"); client=("${tls_client[@]}") ;;
  esac
  case "$variant" in
    ours-*) prefix=("${ours_prefix[@]}"); bin="$ours_bin" ;;
    peer-*) prefix=("${peer_prefix[@]}"); bin="$peer_bin" ;;
  esac
  setsid nbdkit -U - "${server[@]}" memory 1G \
    --run "$(shell_quote "${prefix[@]}" "$bin" "$@" "${client[@]}") \
           \"\$unixsocket\"" >"$out" &
  nbdkit_pgid=$!
  wait "$nbdkit_pgid" || rc=$?
  nbdkit_pgid=
  [ "$rc" -eq 0 ] || { cat "$out" >&2; die "$variant failed ($rc)"; }
  ops="$(awk -F': ' '$1 == "requests/s" { print $2 }' "$out")"
  [ -n "$ops" ] || { cat "$out" >&2; die "no requests/s in the output"; }
}

ratio ()
{
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}

bench_workload ()
{
  local name="$1"; shift
  local r v r1="" r2="" r3="" line
  declare -A got

  echo
  echo "== $name: threaded-reads-and-writes -t $threads -r $in_flight $*"
  printf '%-6s %11s %11s %11s %11s %10s %10s\n' round ours-plain \
         ours-tls peer-tls peer-plain tls/plain ours/peer
  for r in warm $(seq 1 "$rounds"); do
    for v in ours-plain ours-tls peer-tls peer-plain; do
      run_one "$v" -t "$threads" -r "$in_flight" "$@"
      got[$v]="$ops"
    done
    line="$(ratio "${got[ours-tls]}" "${got[ours-plain]}")"
    v="$(ratio "${got[ours-tls]}" "${got[peer-tls]}")"
    if [ "$r" != warm ]; then
      r1="$r1$line"$'\n'
      r2="$r2$v"$'\n'
      r3="$r3$(ratio "${got[peer-tls]}" "${got[peer-plain]}")"$'\n'
    fi
    printf '%-6s %11s %11s %11s %11s %10s %10s\n' "$r" "${got[ours-plain]}" \
           "${got[ours-tls]}" "${got[peer-tls]}" "${got[peer-plain]}" \
           "$line" "$v"
  done
  echo "median ours-tls/ours-plain: $(printf '%s' "$r1" | median)"
  echo "median ours-tls/peer-tls:   $(printf '%s' "$r2" | median)"
  echo "median peer-tls/peer-plain: $(printf '%s' "$r3" | median)"
}

run_workloads
