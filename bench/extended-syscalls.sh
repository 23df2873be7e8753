#!/bin/bash -
# bench/extended-syscalls.sh: system calls per 512-byte request of this
# tree's libnbd with and without extended headers.  No Debian server
# speaks them, so the server is tests/ext-server (built by make check)
# behind systemd-socket-activate: scenario "good" agrees to extended
# headers, "absent" does not know the option (compact requests,
# structured replies).  Counted with perf stat (raw_syscalls:sys_enter)
# around examples/threaded-reads-and-writes, one thread; a run of one
# request is subtracted, so setup is not counted.
#
# Settings: ROUNDS (5), REQUESTS (20000), IN_FLIGHT (64).

set -euo pipefail
rounds="${ROUNDS:-5}"
requests="${REQUESTS:-20000}"
in_flight="${IN_FLIGHT:-64}"
server=tests/ext-server
client=examples/threaded-reads-and-writes
for p in perf systemd-socket-activate "$server" "$client"; do
  command -v "$p" >/dev/null 2>&1 || [ -x "$p" ] ||
    { echo "$0: $p is missing (run make check first)" >&2; exit 1; }
done

tmpdir="$(mktemp -d)"
sa=
cleanup () { [ -z "$sa" ] || kill "$sa" 2>/dev/null || :; rm -rf "$tmpdir"; }
trap cleanup EXIT

# calls SCENARIO N: system calls of the client for N requests.
calls ()
{
  local sock="$tmpdir/$1.sock"

  systemd-socket-activate --inetd -a -l "$sock" "$server" "$1" \
    >/dev/null 2>&1 &
  sa=$!
  while [ ! -S "$sock" ]; do sleep 0.1; done
  LD_LIBRARY_PATH=lib/.libs perf stat -x, -o "$tmpdir/perf" \
    -e raw_syscalls:sys_enter "$client" -t 1 -r "$in_flight" -s 512 \
    -n "$2" "$sock" >/dev/null
  kill "$sa"; wait "$sa" 2>/dev/null || :; sa=
  rm -f "$sock"
  awk -F, '$3 == "raw_syscalls:sys_enter" { print $1 }' "$tmpdir/perf"
}

# median SCENARIO: the median of its rounds.
median ()
{
  awk -v s="$1" '$1 == s { print $2 }' "$tmpdir/rounds" | sort -n |
    awk '{ x[NR] = $1 }
         END { if (NR % 2) print x[(NR + 1) / 2];
               else print (x[NR / 2] + x[NR / 2 + 1]) / 2 }'
}

for r in $(seq "$rounds"); do
  for s in good absent; do
    big="$(calls "$s" "$requests")"
    small="$(calls "$s" 1)"
    awk -v s="$s" -v b="$big" -v a="$small" -v n="$requests" \
      'BEGIN { printf "%s %.3f\n", s, (b - a) / (n - 1) }'
  done
done | tee "$tmpdir/rounds"
good="$(median good)"
absent="$(median absent)"
echo "median syscalls per request: extended $good, compact $absent"
awk -v g="$good" -v a="$absent" \
  'BEGIN { printf "ratio extended/compact: %.3f\n", g / a }'
