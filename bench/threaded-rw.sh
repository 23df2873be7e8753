#!/bin/bash -
# bench/threaded-rw.sh: random-I/O throughput of this tree's libnbd
# against Debian's, both running examples/threaded-reads-and-writes on
# a Unix socket to nbdkit memory 1G.  Run by hand; see bench/README.md.
#
# Per workload: one warm-up round, then ROUNDS rounds, each running ours
# then the peer, each with a fresh nbdkit.  Prints per-round ops/s, the
# per-round ratio ours/peer (above 1 means ours is faster), the median
# ratio, and the CPU other processes used meanwhile.
#
# Settings (environment): ROUNDS (5), THREADS (4), IN_FLIGHT (64),
# MIX_REQUESTS (4000), SMALL_REQUESTS (100000), WORKLOADS ("mix small").
# See functions.sh for BUILDDIR, BENCH_OURS_BIN and friends.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
threads="${THREADS:-4}"
in_flight="${IN_FLIGHT:-64}"
mix_requests="${MIX_REQUESTS:-4000}"
small_requests="${SMALL_REQUESTS:-100000}"
workloads="${WORKLOADS:-mix small}"

require nbdkit setsid awk sort getconf ldd
setup_commands
check_libraries

make_tmpdir

# run_one SIDE ARGS...: one run; sets ops (requests/s) and other (CPU
# ticks used by other processes during the run).
run_one ()
{
  local side="$1"; shift
  local b0 o0 b1 o1 out="$tmpdir/out"

  b0="$(busy_ticks)"; o0="$(own_ticks)"
  if [ "$side" = ours ]; then
    run_under_nbdkit "$out" "${ours_prefix[@]}" "$ours_bin" "$@"
  else
    run_under_nbdkit "$out" "${peer_prefix[@]}" "$peer_bin" "$@"
  fi
  b1="$(busy_ticks)"; o1="$(own_ticks)"
  ops="$(awk -F': ' '$1 == "requests/s" { print $2 }' "$out")"
  [ -n "$ops" ] || { cat "$out" >&2; die "no requests/s in the output"; }
  other=$(( (b1 - b0) - (o1 - o0) ))
  [ "$other" -ge 0 ] || other=0
}

ticks_to_s ()
{
  awk -v t="$1" -v hz="$clk_tck" 'BEGIN { printf "%.2f", t / hz }'
}

bench_workload ()
{
  local name="$1"; shift
  local r ours_ops peer_ops ratio other_total=0 t0 t1 ratios=""

  echo
  echo "== $name: threaded-reads-and-writes -t $threads -r $in_flight $*"
  printf '%-6s %12s %12s %8s %14s\n' \
         round "ours ops/s" "peer ops/s" ratio "other CPU s"
  t0="$(date +%s.%N)"
  for r in warm $(seq 1 "$rounds"); do
    run_one ours -t "$threads" -r "$in_flight" "$@"
    ours_ops="$ops"; other_total=$(( other_total + other ))
    local other_pair="$other"
    run_one peer -t "$threads" -r "$in_flight" "$@"
    peer_ops="$ops"; other_total=$(( other_total + other ))
    other_pair=$(( other_pair + other ))
    ratio="$(awk -v a="$ours_ops" -v b="$peer_ops" \
                 'BEGIN { printf "%.3f", a / b }')"
    [ "$r" = warm ] || ratios="$ratios$ratio"$'\n'
    printf '%-6s %12s %12s %8s %14s\n' \
           "$r" "$ours_ops" "$peer_ops" "$ratio" "$(ticks_to_s "$other_pair")"
  done
  t1="$(date +%s.%N)"
  echo "median ratio ours/peer ($rounds rounds):" \
       "$(printf '%s' "$ratios" | median)"
  awk -v o="$other_total" -v hz="$clk_tck" -v a="$t0" -v b="$t1" \
      -v n="$(nproc)" 'BEGIN {
        w = (b - a) * n
        printf "other processes used %.2f s CPU of %.1f s available" \
               " (%.1f%%)%s\n", o / hz, w, 100 * o / hz / w,
               (o / hz > 0.1 * w ? "  -- machine busy, consider a rerun" : "")
      }'
}

run_workloads
