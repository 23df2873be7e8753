# bench/functions.sh: helpers shared by the hand-run benchmark scripts.
# Sourced, never run.  Sets up the two commands being compared:
#
#   ours: examples/threaded-reads-and-writes from this build tree, run
#         through the tree's ./run wrapper (LD_LIBRARY_PATH = lib/.libs)
#   peer: the same source built by build-peer.sh against Debian's libnbd
#
# Both binaries are linked to a library with soname libnbd.so.0, so what
# decides which library runs is the environment.  The peer always runs
# with LD_LIBRARY_PATH and LD_PRELOAD removed; ours always runs through
# ./run.  check_libraries prints and checks what each one maps.
#
# Overrides (environment):
#   BUILDDIR            top of the build tree (default: the source tree)
#   BENCH_OURS_BIN      binary to use in the "ours" slot
#   BENCH_OURS_WRAPPER  wrapper in front of it (default BUILDDIR/run when
#                       BENCH_OURS_BIN is unset, none when it is set)
#   BENCH_PEER_DIR      where build-peer.sh puts the peer binary
#   PEER                1.24.4 or 1.22.2: the peer binary runs on that
#                       unpacked library (require_peer_run) instead of
#                       Debian 12's system libnbd (1.14.2)

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top_srcdir="$(cd "$bench_dir/.." && pwd)"
builddir="${BUILDDIR:-$top_srcdir}"
example_src="$top_srcdir/examples/threaded-reads-and-writes.c"
peer_dir="${BENCH_PEER_DIR:-$bench_dir/build-peer}"
peer_bin="$peer_dir/threaded-reads-and-writes"

# Variables the tree's ./run sets that would make ours slower or
# different from the peer: malloc perturbation fills every allocation,
# and LIBNBD_VALGRIND would put valgrind in front.
unfair_env=(-u MALLOC_PERTURB_ -u MALLOC_CHECK_ -u LIBNBD_VALGRIND -u VG)

die ()
{
  echo "$(basename "$0"): $*" >&2
  exit 1
}

require ()
{
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 || die "'$t' is needed but not installed"
  done
}

# Fill the arrays peer_prefix, ours_prefix (commands to put in front of
# a binary, possibly with extra VAR=value words appended later) and the
# variables peer_bin, ours_bin.
setup_commands ()
{
  local wrapper

  [ -x "$peer_bin" ] ||
    die "no peer binary at $peer_bin: run bench/build-peer.sh first"
  peer_prefix=(env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}")
  peer_ldd=(ldd)
  peer_name=1.14.2
  if [ -n "${PEER:-}" ]; then
    # The unpacked tree's run is its own loader: it lists with --list.
    require_peer_run
    peer_prefix+=("$peer_run_dir/run")
    peer_ldd=(--list)
  fi

  if [ -n "${BENCH_OURS_BIN:-}" ]; then
    ours_bin="$BENCH_OURS_BIN"
    wrapper="${BENCH_OURS_WRAPPER:-}"
  else
    ours_bin="$builddir/examples/threaded-reads-and-writes"
    wrapper="${BENCH_OURS_WRAPPER-$builddir/run}"
  fi
  [ -x "$ours_bin" ] ||
    die "no binary at $ours_bin: build the tree (make) first," \
        "or set BENCH_OURS_BIN"
  if [ -n "$wrapper" ]; then
    [ -x "$wrapper" ] || die "no wrapper at $wrapper (configure makes ./run)"
    ours_prefix=("$wrapper" env "${unfair_env[@]}")
  else
    ours_prefix=(env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}")
  fi
}

# Print which libnbd.so.0 each side would map, and refuse to go on when
# the peer would load this tree's library.
check_libraries ()
{
  local p o

  p="$("${peer_prefix[@]}" "${peer_ldd[@]}" "$peer_bin" |
       awk '/libnbd\.so/ { print $3 }')"
  o="$("${ours_prefix[@]}" ldd "$ours_bin" | awk '/libnbd\.so/ { print $3 }')"
  echo "peer ($peer_name): $peer_bin"
  echo "      libnbd: $p"
  echo "ours: ${ours_prefix[0]} ... $ours_bin"
  echo "      libnbd: $o"
  case "$p" in
    "$builddir"/*) die "the peer would load this tree's library" ;;
    "") die "cannot tell which libnbd the peer loads" ;;
  esac
  if [ -z "${BENCH_OURS_BIN:-}" ]; then
    case "$o" in
      "$builddir"/*) ;;
      *) die "ours would load $o, not this tree's lib/.libs" ;;
    esac
  fi
  if [ "$p" = "$o" ]; then
    echo "NOTE: both slots load the same library (an A/A test)"
  fi
}

# Quote words for the /bin/sh that nbdkit --run uses.
shell_quote ()
{
  printf '%q ' "$@"
}

# run_under_nbdkit OUTFILE WORDS...: start a fresh nbdkit memory 1G on a
# private Unix socket, run WORDS followed by the socket path, and save
# the client's stdout in OUTFILE.  nbdkit runs in its own session so the
# EXIT trap can kill it and its client by process group.
nbdkit_pgid=
run_under_nbdkit ()
{
  local out="$1"; shift
  local rc=0

  setsid nbdkit -U - memory 1G \
         --run "$(shell_quote "$@") \"\$unixsocket\"" >"$out" &
  nbdkit_pgid=$!
  wait "$nbdkit_pgid" || rc=$?
  nbdkit_pgid=
  if [ "$rc" -ne 0 ]; then
    cat "$out" >&2
    die "client or nbdkit failed (status $rc): $*"
  fi
}

kill_nbdkit ()
{
  if [ -n "$nbdkit_pgid" ]; then
    kill -TERM -- "-$nbdkit_pgid" 2>/dev/null || :
    wait "$nbdkit_pgid" 2>/dev/null || :
  fi
}

# start_memory_server DIR: nbdkit memory 64M in the background on the
# Unix socket DIR/sock, its pid in DIR/pid (the caller's EXIT trap
# kills it); returns once nbdkit listens (it writes the pid file then).
start_memory_server ()
{
  nbdkit -U "$1/sock" -P "$1/pid" memory 64M
  for _ in $(seq 100); do [ -s "$1/pid" ] && return 0; sleep 0.1; done
  die "nbdkit did not start"
}

# make_tmpdir: a scratch directory in $tmpdir, removed at exit with any
# nbdkit the script left running.
make_tmpdir ()
{
  tmpdir="$(mktemp -d)"
  trap 'kill_nbdkit; rm -rf "$tmpdir"' EXIT
  trap 'exit 130' INT TERM
}

# CPU accounting, in clock ticks.  busy_ticks: all CPUs' non-idle time
# from /proc/stat.  own_ticks: this shell plus every child it has waited
# for (nbdkit, which waits for the client).  Other processes' CPU over
# an interval is the change in busy_ticks minus the change in own_ticks.
busy_ticks ()
{
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

own_ticks ()
{
  # Fields after the ")" of the command name: utime is the 12th,
  # then stime, cutime, cstime.
  sed 's/.*) //' "/proc/$$/stat" | awk '{ print $12 + $13 + $14 + $15 }'
}

clk_tck="$(getconf CLK_TCK)"

# median: read numbers one per line, print the median.
median ()
{
  sort -g | awk '{ v[NR] = $1 }
    END {
      if (NR == 0) exit 1
      if (NR % 2) print v[(NR + 1) / 2]
      else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
    }'
}

# run_workloads: a line saying when and on what, then bench_workload
# (defined by the script) for each of $workloads: "mix", a mixture of
# request sizes, $mix_requests times; "small", 512-byte requests,
# $small_requests times.
run_workloads ()
{
  local w
  echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs," \
       "load $(cut -d' ' -f1-3 /proc/loadavg)"
  for w in $workloads; do
    case "$w" in
      mix) bench_workload mix -m -n "$mix_requests" ;;
      small) bench_workload small -s 512 -n "$small_requests" ;;
      *) die "unknown workload '$w' (mix, small)" ;;
    esac
  done
}

# Stop the server a script started in the background ($server_pid,
# empty when none runs), and wait for it.
server_pid=
stop_server ()
{
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || :
    wait "$server_pid" 2>/dev/null || :
    server_pid=
  fi
}

# start_server_on SOCK PIDFILE ARGS...: a fresh nbdkit ARGS on the Unix
# socket SOCK (on 127.0.0.1:$server_port instead when server_port is
# set), in the foreground of a background job (so this script owns its
# pid, left in started_pid), ready once it has written PIDFILE.  Its
# stderr goes to PIDFILE.err.
started_pid=
start_server_on ()
{
  local sock="$1" pidfile="$2" i
  shift 2

  local listen=(-U "$sock")
  [ -z "${server_port:-}" ] || listen=(-i 127.0.0.1 -p "$server_port")
  rm -f "$sock" "$pidfile"
  nbdkit -f "${listen[@]}" -P "$pidfile" --exit-with-parent "$@" \
         2>"$pidfile.err" &
  started_pid=$!
  for i in $(seq 1 200); do
    [ -s "$pidfile" ] && return 0
    kill -0 "$started_pid" 2>/dev/null || break
    sleep 0.05
  done
  cat "$pidfile.err" >&2
  die "nbdkit $* did not start"
}

# start_server ARGS...: start_server_on $sock (the script sets sock and
# tmpdir), its pid in server_pid for stop_server.
start_server ()
{
  start_server_on "$sock" "$tmpdir/pid" "$@"
  server_pid=$started_pid
}

# other_cpu_start, then other_cpu_percent: the share (%, never below 0)
# of all CPUs that processes other than this shell and its children
# used between the two.
other_cpu_start ()
{
  other_b0="$(busy_ticks)"; other_o0="$(own_ticks)"
  other_s0="$(date +%s.%N)"
}

other_cpu_percent ()
{
  awk -v o=$(( ($(busy_ticks) - other_b0) - ($(own_ticks) - other_o0) )) \
      -v hz="$clk_tck" -v a="$other_s0" -v b="$(date +%s.%N)" \
      -v n="$(nproc)" \
      'BEGIN { p = 100 * o / hz / ((b - a) * n); if (p < 0) p = 0
               printf "%.0f\n", p }'
}

# The 1.22.2 tree to run clients on: $PEER13, or the cache
# scripts/peer-libnbd-1.22.sh fills; sets peer13.
require_peer13_run ()
{
  peer13="${PEER13:-/var/cache/libnbd-peers/debian13}"
  [ -x "$peer13/run" ] || die "no libnbd 1.22.2 at $peer13 (set PEER13)"
}

# build_client NAME [GCC ARGS...]: bench/NAME.c built against this
# tree's header and library into $tmpdir/NAME (which library runs is
# the loader's: ./run, or 1.22.2's run).
build_client ()
{
  local name=$1
  shift
  gcc -O2 -Wall "$@" -I"$builddir/include" "$bench_dir/$name.c" \
    -o "$tmpdir/$name" -L"$builddir/lib/.libs" -lnbd
}

# The peer library that rounds_ours_peer runs clients on: PEER, 1.22.2
# (default: the tree require_peer13_run finds) or 1.24.4 (PEERSID, or
# the cache scripts/peer-libnbd-1.24.sh fills); sets peer_name and
# peer_run_dir (whose run loads that library).
require_peer_run ()
{
  peer_name="${PEER:-1.22.2}"
  case "$peer_name" in
    1.22.2) require_peer13_run; peer_run_dir=$peer13 ;;
    1.24.4)
      peer_run_dir="${PEERSID:-/var/cache/libnbd-peers/debian-sid}"
      [ -x "$peer_run_dir/run" ] ||
        die "no libnbd 1.24.4 at $peer_run_dir (set PEERSID)" ;;
    *) die "PEER must be 1.22.2 or 1.24.4, not '$peer_name'" ;;
  esac
}

# rounds_ours_peer CLIENT ARGS...: $rounds interleaved runs of
# $tmpdir/CLIENT ARGS on ours (./run) and on the peer
# (require_peer_run); their outputs, a line a run, in $tmpdir/ours and
# $tmpdir/peer.
rounds_ours_peer ()
{
  local client="$tmpdir/$1" r
  shift
  : > "$tmpdir/ours"; : > "$tmpdir/peer"
  for r in $(seq "$rounds"); do
    "$builddir/run" env "${unfair_env[@]}" "$client" "$@" >> "$tmpdir/ours"
    env -u LD_LIBRARY_PATH "${unfair_env[@]}" \
      "$peer_run_dir/run" "$client" "$@" >> "$tmpdir/peer"
  done
}
