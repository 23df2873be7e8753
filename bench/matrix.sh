#!/bin/bash -
# bench/matrix.sh: the benchmark matrix of issues 18 and 42.  Ours
# against libnbd 1.24.4 (Debian sid) and 1.22.2 (Debian 13), both
# unpacked, never installed, and 1.14.2 (Debian 12, the system libnbd),
# side by side, every workload of the issues' tables.  Run by hand from
# a built tree; see bench/README.md.
#
# Per workload: WARMUP untimed rounds, then ROUNDS rounds; each round
# runs every library once, in an order rotated by one each round
# (ours 1.24.4 1.22.2 1.14.2, then 1.24.4 1.22.2 1.14.2 ours, ...),
# each run against
# a fresh nbdkit started on its own (not through --run), so that
# /usr/bin/time around the client measures the client alone.
#
# Library workloads run ONE binary on every library: the example
# examples/threaded-reads-and-writes.c built by build-peer.sh against
# Debian 12's header (bench/build-peer/), loaded on ours through
# LD_LIBRARY_PATH, on 1.24.4 through PEERSID/run and on 1.22.2 through
# PEER13/run (each its own loader), on 1.14.2 plainly.  nbdcopy workloads run each library's own nbdcopy.
#
# Figures per run: wall (the example's own "seconds:", which starts
# after every handle has connected; for nbdcopy, the elapsed time of the
# process), client CPU (user + sys of the client process and its
# children, from wait4), peak RSS (/usr/bin/time %M).  Per workload it
# prints the median over rounds of the per-round ratios: wall as peer /
# ours (above 1: ours is faster), CPU as ours / peer (below 1: ours uses
# less), and writes them as a table into bench/README.md (between the
# matrix.sh markers) and as a plot into bench/matrix.png.
#
# Settings (environment):
#   ROUNDS (3), WARMUP (1), WORKLOADS (all, see "workloads" below),
#   MIX_REQUESTS (8000), LARGE_REQUESTS (6144: 6 GiB of 1 MiB requests),
#   SMALL_REQUESTS (100000), SPARSE_SIZE (16G), DENSE_SIZE (4G),
#   DENSE_TO (null: "null" copies to null:, "nbd" to the same server,
#   which then checks every byte written), DELAY_SIZE (4G),
#   VERIFY (1: before timing, check that each nbdcopy reads the same
#   bytes, by checksum of a copy to stdout),
#   QUICK (0; 1: small sizes, 1 round, no warm-up, to check the script;
#   its table is labelled QUICK and its plot goes to matrix-quick.png),
#   PEER13 (where 1.22.2 is unpacked: the cache that
#   scripts/peer-libnbd-1.22.sh fills, /var/cache/libnbd-peers/debian13,
#   else bench/peer13, else ../peer13 beside the source tree; unpacked
#   into bench/peer13 with ../shared/peers/debian13.sh when none exists),
#   DEBIAN13_SH (the unpacking script, ../shared/peers/debian13.sh),
#   PEERSID (where libnbd 1.24.4 is unpacked: the cache that
#   scripts/peer-libnbd-1.24.sh fills, /var/cache/libnbd-peers/debian-sid),
#   PEERS (the libraries beside ours, in this order: any of the
#   default "1.24.4 1.22.2 1.14.2"),
#   TRANSPORT (unix: a Unix socket; tcp: TCP on 127.0.0.1, a free port
#   chosen at the start; its README section has its own markers and its
#   plot is matrix-tcp.png),
#   MATRIX_README (bench/README.md; "none" to leave it alone),
#   MATRIX_PNG (bench/matrix.png, or bench/matrix-quick.png with QUICK,
#   or bench/matrix-tcp.png with TRANSPORT=tcp).
#   BUILDDIR as in functions.sh.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

all_workloads="mix read-1m write-1m small-1t small-2t \
copy-sparse copy-dense copy-delay"
quick="${QUICK:-0}"
if [ "$quick" = 1 ]; then
  rounds="${ROUNDS:-1}"
  warmup="${WARMUP:-0}"
  mix_requests="${MIX_REQUESTS:-400}"
  large_requests="${LARGE_REQUESTS:-256}"
  small_requests="${SMALL_REQUESTS:-5000}"
  sparse_size="${SPARSE_SIZE:-1G}"
  dense_size="${DENSE_SIZE:-256M}"
  delay_size="${DELAY_SIZE:-256M}"
  png="${MATRIX_PNG:-$bench_dir/matrix-quick.png}"
else
  rounds="${ROUNDS:-3}"
  warmup="${WARMUP:-1}"
  mix_requests="${MIX_REQUESTS:-8000}"
  large_requests="${LARGE_REQUESTS:-6144}"
  small_requests="${SMALL_REQUESTS:-100000}"
  sparse_size="${SPARSE_SIZE:-16G}"
  dense_size="${DENSE_SIZE:-4G}"
  delay_size="${DELAY_SIZE:-4G}"
  png="${MATRIX_PNG:-$bench_dir/matrix.png}"
fi
transport="${TRANSPORT:-unix}"
if [ "$transport" = tcp ] && [ "$quick" != 1 ] && [ -z "${MATRIX_PNG:-}" ]
then
  png="$bench_dir/matrix-tcp.png"
fi
read -r -a wl <<<"${WORKLOADS:-$all_workloads}"
workloads="${wl[*]}"
dense_to="${DENSE_TO:-null}"
verify="${VERIFY:-1}"
readme="${MATRIX_README:-$bench_dir/README.md}"
read -r -a peers <<<"${PEERS:-1.24.4 1.22.2 1.14.2}"
libs=(ours "${peers[@]}")

# The command line that reproduces this run, every setting spelled out.
command_line="QUICK=$quick ROUNDS=$rounds WARMUP=$warmup\
 WORKLOADS='$workloads' MIX_REQUESTS=$mix_requests\
 LARGE_REQUESTS=$large_requests SMALL_REQUESTS=$small_requests\
 SPARSE_SIZE=$sparse_size DENSE_SIZE=$dense_size DENSE_TO=$dense_to\
 DELAY_SIZE=$delay_size PEERS='${peers[*]}' TRANSPORT=$transport\
 bench/matrix.sh"

require nbdkit gnuplot python3 awk sort md5sum ldd /usr/bin/time \
        /usr/bin/nbdcopy
case "$transport" in
  unix|tcp) ;;
  *) die "TRANSPORT must be unix or tcp, not '$transport'" ;;
esac
case "$dense_to" in
  null|nbd) ;;
  *) die "DENSE_TO must be null or nbd, not '$dense_to'" ;;
esac
[ ${#peers[@]} -gt 0 ] || die "PEERS names no library"
for p in "${peers[@]}"; do
  case "$p" in
    1.24.4|1.22.2|1.14.2) ;;
    *) die "unknown library '$p' in PEERS (any of: 1.24.4 1.22.2 1.14.2)" ;;
  esac
done
for w in $workloads; do
  case " $all_workloads " in
    *" $w "*) ;;
    *) die "unknown workload '$w' (one of: $all_workloads)" ;;
  esac
done

# ---- the peers ------------------------------------------------------

# 1.22.2: an unpacked tree with its own loader.  Use one that exists,
# or unpack one into bench/peer13 (gitignored).
find_peer13 ()
{
  local d script

  if [ -n "${PEER13:-}" ]; then
    peer13="$PEER13"
  elif [ -x /var/cache/libnbd-peers/debian13/run ]; then
    peer13=/var/cache/libnbd-peers/debian13    # scripts/peer-libnbd-1.22.sh
  elif [ -x "$bench_dir/peer13/run" ]; then
    peer13="$bench_dir/peer13"
  elif [ -x "$top_srcdir/../peer13/run" ]; then
    peer13="$(cd "$top_srcdir/../peer13" && pwd)"
  else
    peer13="$bench_dir/peer13"
  fi
  if [ ! -x "$peer13/run" ] || [ ! -x "$peer13/nbdcopy" ]; then
    script="${DEBIAN13_SH:-$top_srcdir/../shared/peers/debian13.sh}"
    [ -x "$script" ] ||
      die "no libnbd 1.22.2 at $peer13 and no $script to unpack it" \
          "(set PEER13 or DEBIAN13_SH)"
    echo "unpacking libnbd 1.22.2 into $peer13 with $script"
    "$script" "$peer13" || die "$script $peer13 failed"
  fi
  d="$("$peer13/nbdcopy" --version | awk '/^libnbd/ { print $2 }')"
  [ "$d" = 1.22.2 ] || die "$peer13/nbdcopy runs on libnbd '$d', not 1.22.2"
}

# 1.24.4: the tree scripts/peer-libnbd-1.24.sh unpacks.
find_peersid ()
{
  local d
  peersid="${PEERSID:-/var/cache/libnbd-peers/debian-sid}"
  [ -x "$peersid/run" ] && [ -x "$peersid/nbdcopy" ] ||
    die "no libnbd 1.24.4 at $peersid (run scripts/peer-libnbd-1.24.sh" \
        "or set PEERSID)"
  d="$("$peersid/nbdcopy" --version | awk '/^libnbd/ { print $2 }')"
  [ "$d" = 1.24.4 ] || die "$peersid/nbdcopy runs on libnbd '$d', not 1.24.4"
}

# The example binary, rebuilt when the source is newer.
if [ ! -x "$peer_bin" ] || [ "$example_src" -nt "$peer_bin" ]; then
  "$bench_dir/build-peer.sh"
fi
find_peer13
find_peersid

ours_libdir="$builddir/lib/.libs"
ours_nbdcopy="$builddir/copy/.libs/nbdcopy"
[ -f "$ours_libdir/libnbd.so.0" ] && [ -x "$ours_nbdcopy" ] ||
  die "build the tree first (no $ours_libdir/libnbd.so.0 or $ours_nbdcopy)"

# Every client starts from an environment without ./run's malloc
# perturbation or a stray preload; each side then adds only what
# selects its library.
base_env=(env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}")

# lib_prefix LIB: set prefix to the words that run the example on LIB.
lib_prefix ()
{
  case "$1" in
    ours) prefix=("${base_env[@]}" "LD_LIBRARY_PATH=$ours_libdir") ;;
    1.24.4) prefix=("${base_env[@]}" "$peersid/run") ;;
    1.22.2) prefix=("${base_env[@]}" "$peer13/run") ;;
    1.14.2) prefix=("${base_env[@]}") ;;
  esac
}

# copy_prefix LIB: set prefix to the words that run LIB's own nbdcopy.
copy_prefix ()
{
  case "$1" in
    ours) prefix=("${base_env[@]}" "LD_LIBRARY_PATH=$ours_libdir"
                  "$ours_nbdcopy") ;;
    1.24.4) prefix=("${base_env[@]}" "$peersid/nbdcopy") ;;
    1.22.2) prefix=("${base_env[@]}" "$peer13/nbdcopy") ;;
    1.14.2) prefix=("${base_env[@]}" /usr/bin/nbdcopy) ;;
  esac
}

# Print what each side maps, and stop if a side would load the wrong
# library (the example asks for libnbd.so.0 on every side).
check_sides ()
{
  local lib got

  for lib in "${libs[@]}"; do
    lib_prefix "$lib"
    if [ "$lib" = 1.22.2 ] || [ "$lib" = 1.24.4 ]; then
      got="$("${prefix[@]}" --list "$peer_bin" |
             awk '/libnbd\.so/ { print $3 }')"
    else
      got="$("${prefix[@]}" ldd "$peer_bin" |
             awk '/libnbd\.so/ { print $3 }')"
    fi
    # ours from the build tree; 1.24.4 and 1.22.2 from their unpacked
    # trees (where their run points, not always under the tree), 1.14.2
    # from the system's: never one another's.
    case "$lib:$got" in
      ours:"$ours_libdir"/*) ;;
      ours:*|*:"$builddir"/*|*:) die "the example on $lib would load '$got'" ;;
      1.2[24].*:/lib/*|1.2[24].*:/usr/lib/*|1.14.2:"$peer13"/*|\
      1.14.2:"$peersid"/*|1.22.2:"$peersid"/*|1.24.4:"$peer13"/*)
        die "the example on $lib would load '$got'" ;;
    esac
    copy_prefix "$lib"
    printf '%-7s example: %s\n        nbdcopy: %s\n' \
           "$lib" "$got" "$("${prefix[@]}" --version | tr '\n' ' ')"
  done
  "${base_env[@]}" LD_LIBRARY_PATH="$ours_libdir" ldd "$ours_nbdcopy" |
    grep "$ours_libdir/libnbd.so.0" >/dev/null ||
    die "our nbdcopy does not map $ours_libdir/libnbd.so.0"
}

# ---- servers and runs -----------------------------------------------

tmpdir="$(mktemp -d)"
sock="$tmpdir/sock"
server_pid=
# target: what the example connects to; uri: what nbdcopy reads.
if [ "$transport" = tcp ]; then
  server_port="$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  uri="nbd://127.0.0.1:$server_port"
  target="$uri"
else
  uri="nbd+unix:///?socket=$sock"
  target="$sock"
fi



trap 'stop_server; rm -rf "$tmpdir"' EXIT
trap 'exit 130' INT TERM

# server_for WORKLOAD: start the server the workload reads from.
server_for ()
{
  case "$1" in
    mix|read-1m|write-1m|small-*) start_server memory 1G ;;
    copy-sparse) start_server sparse-random "size=$sparse_size" seed=1 ;;
    copy-dense)
      start_server sparse-random "size=$dense_size" seed=1 percent=100 ;;
    copy-delay)
      start_server --filter=delay pattern "size=$delay_size" rdelay=1ms ;;
  esac
}

# client_args WORKLOAD: set args to what follows the client's prefix.
client_args ()
{
  local trw=("$peer_bin" -r 64)

  case "$1" in
    mix) args=("${trw[@]}" -t 8 -m -w 50 -n "$mix_requests" "$target") ;;
    read-1m)
      args=("${trw[@]}" -t 1 -s 1048576 -w 0 -n "$large_requests"
            "$target") ;;
    write-1m)
      args=("${trw[@]}" -t 1 -s 1048576 -w 100 -n "$large_requests"
            "$target") ;;
    small-1t)
      args=("${trw[@]}" -t 1 -s 512 -n "$small_requests" "$target") ;;
    small-2t)
      args=("${trw[@]}" -t 2 -s 512 -n "$small_requests" "$target") ;;
    copy-sparse) args=("$uri" "$uri") ;;
    copy-dense)
      if [ "$dense_to" = nbd ]; then args=("$uri" "$uri")
      else args=("$uri" null:); fi ;;
    copy-delay) args=("$uri" null:) ;;
  esac
}

describe ()
{
  case "$1" in
    mix) echo "threaded example: 8 connections, 64 in flight, half 1 MiB" \
              "half 512 B, half writes, $mix_requests requests;" \
              "nbdkit memory 1G" ;;
    read-1m) echo "1 MiB reads only, 1 thread, 64 in flight," \
                  "$large_requests requests" ;;
    write-1m) echo "1 MiB writes only, 1 thread, 64 in flight," \
                   "$large_requests requests" ;;
    small-1t) echo "512 B, half writes, 1 thread, 64 in flight," \
                   "$small_requests requests" ;;
    small-2t) echo "512 B, half writes, 2 threads, 64 in flight each," \
                   "$small_requests requests" ;;
    copy-sparse) echo "nbdcopy, nbdkit sparse-random $sparse_size," \
                      "one server both ends" ;;
    copy-dense) echo "nbdcopy, sparse-random $dense_size percent=100" \
                     "to $( [ "$dense_to" = nbd ] && echo "the same server" ||
                            echo null: )" ;;
    copy-delay) echo "nbdcopy, pattern $delay_size to null:," \
                     "delay filter rdelay=1ms" ;;
  esac
}

# run_one WORKLOAD LIB: one timed run against a fresh server; sets
# wall, cpu (seconds) and rss (KiB).
run_one ()
{
  local w="$1" lib="$2" out="$tmpdir/out" t="$tmpdir/time" rc=0

  server_for "$w"
  client_args "$w"
  case "$w" in
    copy-*) copy_prefix "$lib" ;;
    *) lib_prefix "$lib" ;;
  esac
  python3 "$bench_dir/timeit.py" "$t" "${prefix[@]}" "${args[@]}" \
          >"$out" 2>&1 || rc=$?
  stop_server
  if [ "$rc" -ne 0 ]; then
    cat "$out" >&2
    die "$w on $lib failed (status $rc)"
  fi
  IFS=, read -r wall rss user sys <"$t"
  cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')"
  case "$w" in
    copy-*) ;;
    *)
      wall="$(awk -F': ' '$1 == "seconds" { print $2 }' "$out")"
      [ -n "$wall" ] || { cat "$out" >&2; die "no seconds: from $w"; }
      ;;
  esac
}

# verify WORKLOAD: the bytes each nbdcopy reads must be the same.  The
# delay filter passes data through, so copy-delay is checked without
# it.  (copy-sparse, and copy-dense with DENSE_TO=nbd, need no check:
# sparse-random fails any write that differs from what it serves.)
verify_copy ()
{
  local w="$1" lib sum first=

  for lib in "${libs[@]}"; do
    case "$w" in
      copy-dense)
        start_server sparse-random "size=$dense_size" seed=1 percent=100 ;;
      copy-delay) start_server pattern "size=$delay_size" ;;
    esac
    copy_prefix "$lib"
    sum="$("${prefix[@]}" "$uri" - | md5sum | cut -d' ' -f1)"
    stop_server
    echo "verify $w: $lib read md5 $sum"
    [ -z "$first" ] || [ "$sum" = "$first" ] ||
      die "$w: $lib read different bytes ($sum, not $first)"
    first="$sum"
  done
}

# ---- the matrix -----------------------------------------------------

results="$tmpdir/results"    # workload round lib wall cpu rss
: >"$results"
other_cpu="$tmpdir/other"    # workload other-CPU-% of the run
: >"$other_cpu"

echo "matrix.sh: $command_line"
start_date="$(date -u '+%Y-%m-%d %H:%M UTC')"
start_load="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "$start_date, $(nproc) CPUs, load $start_load"
check_sides
t_start="$(date +%s)"

for w in $workloads; do
  echo
  echo "== $w: $(describe "$w")"
  case "$w" in
    copy-dense|copy-delay)
      if [ "$verify" = 1 ] &&
         ! { [ "$w" = copy-dense ] && [ "$dense_to" = nbd ]; }; then
        verify_copy "$w"
      fi ;;
  esac
  printf '%-6s %-7s %9s %9s %9s\n' round lib "wall s" "CPU s" "RSS MB"
  other_cpu_start
  for ((r = 1 - warmup; r <= rounds; r++)); do
    for ((k = 0; k < ${#libs[@]}; k++)); do
      # Timed round 1 starts with ours, round 2 with 1.24.4, ...
      n=${#libs[@]}
      lib="${libs[$(( ((r - 1 + k) % n + n) % n ))]}"
      run_one "$w" "$lib"
      label="$r"
      [ "$r" -gt 0 ] || label=warm
      [ "$r" -le 0 ] || echo "$w $r $lib $wall $cpu $rss" >>"$results"
      printf '%-6s %-7s %9.3f %9.3f %9.1f\n' \
             "$label" "$lib" "$wall" "$cpu" \
             "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
    done
  done
  echo "$w $(other_cpu_percent)" >>"$other_cpu"
  echo "other processes: $(awk -v w="$w" '$1 == w { print $2 }' \
       "$other_cpu")% of the CPU during this workload"
done

end_load="$(cut -d' ' -f1-3 /proc/loadavg)"
minutes="$(( ($(date +%s) - t_start + 30) / 60 ))"

# ---- summaries ------------------------------------------------------

# field W LIB COLUMN: the values of COLUMN (4 wall, 5 cpu, 6 rss) for W
# on LIB, one per round, in round order.
field ()
{
  awk -v w="$1" -v l="$2" -v c="$3" '$1 == w && $3 == l { print $2, $c }' \
      "$results" | sort -n | cut -d' ' -f2
}

# ratios W PEER KIND: the per-round ratios, wall as peer / ours, cpu as
# ours / peer, one per line.
ratios ()
{
  local c=4 num den
  [ "$3" = cpu ] && c=5
  if [ "$3" = wall ]; then num="$2"; den=ours; else num=ours; den="$2"; fi
  paste -d' ' <(field "$1" "$num" "$c") <(field "$1" "$den" "$c") |
    awk '{ printf "%.3f\n", $1 / $2 }'
}

# cell W PEER KIND: "median (min-max)" of the per-round ratios.
cell ()
{
  local list m
  list="$(ratios "$@")"
  m="$(printf '%s\n' "$list" | median)"
  if [ "$rounds" -gt 1 ]; then
    printf '%.2f (%s)' "$m" \
      "$(printf '%s\n' "$list" | sort -g |
         awk 'NR == 1 { a = $1 } { b = $1 }
              END { printf "%.2f-%.2f", a, b }')"
  else
    printf '%.2f' "$m"
  fi
}

med ()
{
  field "$@" | median
}

# The table, markdown; also the data file for the plot.
table="$tmpdir/table.md"
plotdat="$tmpdir/plot.dat"
: >"$plotdat"
{
  head="| workload |"
  for p in "${peers[@]}"; do head="$head wall $p / ours |"; done
  for p in "${peers[@]}"; do head="$head CPU ours / $p |"; done
  all="${libs[*]}"
  echo "$head wall s ${all// /, } | CPU s ${all// /, } |" \
       "peak RSS MB ${all// /, } | other CPU |"
  echo "|---|$(printf -- '---|%.0s' "${peers[@]}" "${peers[@]}")---|---|---|---|"
  for w in $workloads; do
    walls="" cpus="" rsss="" cells="" plot="$w"
    for lib in "${libs[@]}"; do
      walls="$walls${walls:+, }$(printf '%.3f' "$(med "$w" "$lib" 4)")"
      cpus="$cpus${cpus:+, }$(printf '%.3f' "$(med "$w" "$lib" 5)")"
      rsss="$rsss${rsss:+, }$(awk -v k="$(med "$w" "$lib" 6)" \
                                'BEGIN { printf "%.1f", k / 1024 }')"
    done
    for kind in wall cpu; do
      for p in "${peers[@]}"; do
        cells="$cells $(cell "$w" "$p" "$kind") |"
        plot="$plot $(ratios "$w" "$p" "$kind" | median)"
      done
    done
    echo "| \`$w\`: $(describe "$w") |$cells $walls | $cpus | $rsss |" \
         "$(awk -v w="$w" '$1 == w { print $2 }' "$other_cpu")% |"
    echo "$plot" >>"$plotdat"
  done
} >"$table"

echo
echo "== matrix: medians of per-round ratios over $rounds round(s)" \
     "(range in brackets)"
cat "$table"

# ---- the plot ---------------------------------------------------------

# Each panel's y range reaches past the highest bar and past 1, so the
# line at 1 (level with the peer) always shows.  Columns A to B.
ymax ()
{
  awk -v a="$1" -v b="$2" '{ for (i = a; i <= b; i++) if ($i > m) m = $i }
    END { m *= 1.15; if (m < 1.2) m = 1.2; printf "%.2f", m }' "$plotdat"
}

# plot_cols FIRST: the gnuplot plot list of one panel, a bar per peer
# from column FIRST on.
plot_cols ()
{
  local i=0 p list=""
  for p in "${peers[@]}"; do
    if [ "$i" = 0 ]; then list="\"$plotdat\" using $(( $1 + i )):xtic(1)"
    else list="$list, \"\" using $(( $1 + i ))"; fi
    list="$list title \"$p\""
    i=$(( i + 1 ))
  done
  echo "$list, 1 notitle lw 2 lc rgb \"black\""
}
np=${#peers[@]}

gnuplot <<EOG
set terminal png size 1100,520 noenhanced
set output "$png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid y
set xtics rotate by -30
set key top left horizontal
set multiplot layout 1,2 title "ours vs libnbd ${peers[*]} over $transport, median of $rounds per-round ratios ($start_date)"
set title "wall: peer time / ours (above 1: ours faster)"
set yrange [0:$(ymax 2 $(( 1 + np )))]
plot $(plot_cols 2)
set title "client CPU: ours / peer (below 1: ours uses less)"
set yrange [0:$(ymax $(( 2 + np )) $(( 1 + 2 * np )))]
plot $(plot_cols $(( 2 + np )))
unset multiplot
EOG
echo "wrote $png"

# ---- the README section -----------------------------------------------

if [ "$readme" != none ]; then
  # Each transport has its own section.
  key="matrix.sh"
  [ "$transport" = unix ] || key="matrix.sh $transport"
  begin="<!-- $key begin: generated, do not edit by hand -->"
  end="<!-- $key end -->"
  grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
    die "no matrix.sh markers in $readme"
  section="$tmpdir/section.md"
  {
    if [ "$quick" = 1 ]; then
      echo "**QUICK run (small sizes, a check of the script, not a" \
           "measurement)**, $start_date."
    else
      echo "Full run, $start_date."
    fi
    echo "Command: \`$command_line\`"
    echo "($rounds round(s) after $warmup warm-up, about $minutes min;" \
         "$(nproc) CPUs, load average $start_load at the start and" \
         "$end_load at the end; \"other CPU\" is the share of all CPUs" \
         "that other processes used during the workload.)"
    echo
    cat "$table"
    if [ "$quick" != 1 ]; then
      echo
      echo "![ratios against ${peers[*]}]($(basename "$png"))"
    fi
  } >"$section"
  awk -v b="$begin" -v e="$end" -v f="$section" '
    $0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$readme" >"$tmpdir/readme.new"
  cat "$tmpdir/readme.new" >"$readme"
  echo "updated $readme"
fi
