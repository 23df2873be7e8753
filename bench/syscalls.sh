#!/bin/bash -
# bench/syscalls.sh: system calls per request of this tree's libnbd
# against Debian's, counted with strace -f -c around
# examples/threaded-reads-and-writes (512-byte requests, half writes,
# Unix socket to nbdkit memory 1G).  Run by hand; see bench/README.md.
#
# Each configuration runs once with REQUESTS requests and once with one
# request per thread; the difference, divided by the difference in
# requests, is the per-request figure, so connecting, thread start and
# exit are not counted.  Configurations: the peer, ours with batching,
# ours with LIBNBD_NO_BATCH=1, each with 1 and with 4 threads.
#
# COUNTER=perf counts with perf stat's syscall tracepoints instead: the
# client runs at full speed, so batches are as big as they really are
# (strace slows the client and so flatters batching).
#
# Settings (environment): REQUESTS (20000, total over the threads),
# THREAD_COUNTS ("1 4"), IN_FLIGHT (64), SIZE_ARGS ("-s 512"; "-m" gives
# the 512 B + 1 MiB mix, then use fewer REQUESTS, e.g. 2000).

set -euo pipefail
. "$(dirname "$0")/functions.sh"

requests="${REQUESTS:-20000}"
thread_counts="${THREAD_COUNTS:-1 4}"
in_flight="${IN_FLIGHT:-64}"
read -r -a size_args <<<"${SIZE_ARGS:--s 512}"

counter="${COUNTER:-strace}"
if [ "$counter" = strace ] && ! command -v strace >/dev/null 2>&1; then
  echo "strace is missing, installing it"
  apt-get install -y strace >/dev/null || die "cannot install strace"
fi
require "$counter" nbdkit setsid awk ldd
setup_commands
check_libraries

make_tmpdir

# summarise FILE: print "total send recv poll other" call counts from
# an strace -c summary.  Each table row is: % time, seconds, usecs/call,
# calls, [errors], syscall; the total row is skipped.
summarise ()
{
  awk '
    NF >= 5 && $4 ~ /^[0-9]+$/ && $NF != "total" {
      n = $4; s = $NF; total += n
      if (s ~ /^(send|sendto|sendmsg|sendmmsg|write|writev)$/) send += n
      else if (s ~ /^(recv|recvfrom|recvmsg|recvmmsg|read|readv)$/) recv += n
      else if (s ~ /^(poll|ppoll|select|pselect6|epoll_wait|epoll_pwait)$/)
        poll += n
      else other += n
    }
    END { print total + 0, send + 0, recv + 0, poll + 0, other + 0 }
  ' "$1"
}

perf_events=raw_syscalls:sys_enter
for c in sendmsg sendto recvfrom recvmsg poll; do
  perf_events="$perf_events,syscalls:sys_enter_$c"
done

# perf_to_strace FILE: perf stat -x, output rewritten as the rows of an
# strace -c table (calls in column 4, name last), so the same summary
# code reads both.  Calls not counted by name are reported as "other".
perf_to_strace ()
{
  awk -F, '
    $3 == "raw_syscalls:sys_enter" { total = $1 }
    $3 ~ /^syscalls:sys_enter_/ {
      name = substr($3, length("syscalls:sys_enter_") + 1)
      named += $1
      if ($1 > 0) printf "0.00 0 0 %d %s\n", $1, name
    }
    END { printf "0.00 0 0 %d other\n", total - named }
  ' "$1"
}

# count SIDE THREADS N [VAR=value]: run under strace, print the counts
# followed by the number of requests the client reports.
count ()
{
  local side="$1" t="$2" n="$3"; shift 3
  local st="$tmpdir/strace.txt" out="$tmpdir/out" bin
  local prefix

  if [ "$side" = ours ]; then
    prefix=("${ours_prefix[@]}"); bin="$ours_bin"
  else
    prefix=("${peer_prefix[@]}"); bin="$peer_bin"
  fi
  rm -f "$st"
  if [ "$counter" = perf ]; then
    run_under_nbdkit "$out" "${prefix[@]}" "$@" \
      perf stat -x, -o "$st.perf" -e "$perf_events" \
        "$bin" -t "$t" -r "$in_flight" "${size_args[@]}" -n "$n"
    perf_to_strace "$st.perf" > "$st"
  else
    run_under_nbdkit "$out" "${prefix[@]}" "$@" \
      strace -f -c -o "$st" "$bin" -t "$t" -r "$in_flight" \
            "${size_args[@]}" -n "$n"
  fi
  cp "$st" "$tmpdir/last-strace.txt"
  echo "$(summarise "$st") $(awk -F': ' '$1 == "requests" { print $2 }' "$out")"
}

# by_name CONFIG THREADS FILE REQUESTS: the I/O calls by name, per
# request, from the big run (setup not removed; it is under 1%).
by_name ()
{
  awk -v c="$1" -v t="$2" -v n="$4" '
    NF >= 5 && $4 ~ /^[0-9]+$/ && $NF != "total" &&
    $NF ~ /^(send|recv|write|read|poll|ppoll|select|pselect6|epoll)/ {
      if ($4 / n >= 0.005) line = line sprintf(" %s %.2f", $NF, $4 / n)
    }
    END { printf "  %-20s t=%s:%s", c, t, line }
  ' "$3"
}

detail=""
printf '%-22s %7s %8s %8s %8s %8s %8s\n' \
       configuration threads total send recv poll other
for t in $thread_counts; do
  for config in peer ours ours-no-batch; do
    case "$config" in
      peer) side=peer; extra=() ;;
      ours) side=ours; extra=() ;;
      ours-no-batch) side=ours; extra=(LIBNBD_NO_BATCH=1) ;;
    esac
    read -r -a big <<<"$(count "$side" "$t" "$requests" "${extra[@]}")"
    cp "$tmpdir/last-strace.txt" "$tmpdir/big-strace.txt"
    read -r -a small <<<"$(count "$side" "$t" "$t" "${extra[@]}")"
    awk -v t="$t" -v c="$config" -v b="${big[*]}" -v s="${small[*]}" '
      BEGIN {
        split(b, B, " "); split(s, S, " ")
        d = B[6] - S[6]
        if (d <= 0) { print "bad request counts" > "/dev/stderr"; exit 1 }
        printf "%-22s %7d", c, t
        for (i = 1; i <= 5; i++) {
          v = (B[i] - S[i]) / d
          printf " %8.2f", (v < 0.005 && v > -0.005) ? 0 : v
        }
        printf "\n"
      }'
    detail="$detail$(by_name "$config" "$t" "$tmpdir/big-strace.txt" \
                     "${big[5]}")"$'\n'
  done
done
echo
echo "By name, per request:"
printf '%s' "$detail"
echo "(counted with $counter; syscalls per request: $requests requests, ${size_args[*]}, half writes;"
echo " setup cost removed by subtracting a run of one request per thread)"
