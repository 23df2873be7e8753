#!/bin/bash -
# bench/ocaml-pread.sh: the cost of the OCaml bindings per call: a loop
# of 100,000 blocking 512-byte NBD.pread calls against the same loop
# of nbd_pread in C, both against this tree's libnbd and one nbdkit
# memory server over a Unix socket, interleaved C OCaml for 5 rounds
# after a warm-up.  Prints each round's wall and CPU (user+sys) time
# and the median per-call difference; then, since times on a loaded
# machine are noisy, the user-space instructions per call of each
# (callgrind, counted over 1,000 and 11,000 calls so that start-up
# cancels out), when valgrind is there.
# Usage: bench/ocaml-pread.sh [N-CALLS] [ROUNDS]
set -euo pipefail
source "$(dirname "$0")/functions.sh"

n="${1:-100000}"
rounds="${2:-5}"
require nbdkit
[ -f "$builddir/ocaml/mlnbd.cmxa" ] ||
  die "build the tree first (ocaml/mlnbd.cmxa is missing)"

tmp="$(mktemp -d)"
trap 'kill $(cat "$tmp/pid" 2>/dev/null) 2>/dev/null || :; rm -rf "$tmp"' EXIT

# Each program prints "WALL CPU" in seconds for the loop alone.
cat > "$tmp/loop.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <libnbd.h>

static double
now (clockid_t c)
{
  struct timespec ts;

  clock_gettime (c, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *h = nbd_create ();
  long i, n = atol (argv[2]);
  char buf[512];
  double w, c;

  if (h == NULL || nbd_connect_uri (h, argv[1]) == -1) {
    fprintf (stderr, "%s\n", nbd_get_error ());
    exit (1);
  }
  w = now (CLOCK_MONOTONIC);
  c = now (CLOCK_PROCESS_CPUTIME_ID);
  for (i = 0; i < n; i++)
    if (nbd_pread (h, buf, sizeof buf, 512 * (i % 4096), 0) == -1) {
      fprintf (stderr, "%s\n", nbd_get_error ());
      exit (1);
    }
  printf ("%.3f %.3f\n", now (CLOCK_MONOTONIC) - w,
          now (CLOCK_PROCESS_CPUTIME_ID) - c);
  nbd_close (h);
  return 0;
}
C
cat > "$tmp/loop.ml" <<'ML'
let () =
  let nbd = NBD.create () in
  NBD.connect_uri nbd Sys.argv.(1);
  let n = int_of_string Sys.argv.(2) in
  let buf = Bytes.create 512 in
  let w = Unix.gettimeofday () and c = Unix.times () in
  for i = 0 to n - 1 do
    NBD.pread nbd buf (Int64.of_int (512 * (i mod 4096)))
  done;
  let c' = Unix.times () in
  Printf.printf "%.3f %.3f\n" (Unix.gettimeofday () -. w)
    (c'.Unix.tms_utime +. c'.Unix.tms_stime
     -. c.Unix.tms_utime -. c.Unix.tms_stime);
  NBD.close nbd
ML
gcc -O2 -I"$builddir/include" -I"$top_srcdir/include" "$tmp/loop.c" \
  -L"$builddir/lib/.libs" -lnbd -o "$tmp/loop-c"
(cd "$tmp" && ocamlfind ocamlopt -package unix -I "$builddir/ocaml" \
   -linkpkg "$builddir/ocaml/mlnbd.cmxa" loop.ml \
   -ccopt "-L$builddir/lib/.libs" -o loop-ocaml)

start_memory_server "$tmp"
uri="nbd+unix:///?socket=$tmp/sock"
run () { env "${unfair_env[@]}" LD_LIBRARY_PATH="$builddir/lib/.libs" "$@"; }

run "$tmp/loop-c" "$uri" "$n" >/dev/null              # warm-up
run "$tmp/loop-ocaml" "$uri" "$n" >/dev/null
diffs=()
for r in $(seq "$rounds"); do
  a=$(run "$tmp/loop-c" "$uri" "$n")
  b=$(run "$tmp/loop-ocaml" "$uri" "$n")
  d=$(awk -v a="$a" -v b="$b" -v n="$n" \
        'BEGIN { split(a, x, " "); split(b, y, " ");
                 printf "%.2f %.2f", (y[1] - x[1]) / n * 1e6,
                                     (y[2] - x[2]) / n * 1e6 }')
  echo "round $r: C $a   OCaml $b   (wall cpu, s)   OCaml-C per call: ${d% *} us wall, ${d#* } us cpu"
  diffs+=("$d")
done
echo "median OCaml-C per call: $(printf '%s\n' "${diffs[@]}" | awk '{print $1}' | sort -n | sed -n "$(( (rounds + 1) / 2 ))p") us wall, $(printf '%s\n' "${diffs[@]}" | awk '{print $2}' | sort -n | sed -n "$(( (rounds + 1) / 2 ))p") us cpu"

if command -v valgrind >/dev/null; then
  ir ()
  {
    run valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
      "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\)$/\1/p'
  }
  for p in c ocaml; do
    a=$(ir "$tmp/loop-$p" "$uri" 1000)
    b=$(ir "$tmp/loop-$p" "$uri" 11000)
    echo "$p: $(( (b - a) / 10000 )) instructions per call (user space)"
  done
fi
