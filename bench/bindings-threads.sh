#!/bin/bash -
# bench/bindings-threads.sh: issue 31's delay workload through each
# binding.  THREADS threads (goroutines in Go) share one handle, each
# making READS blocking 4 KiB reads, against nbdkit memory behind
# --filter=delay rdelay=RDELAY.  The client, bench/threads-client.EXT,
# is the same source for every side of a binding:
#   ours    the tree's binding on the tree's libnbd (./run)
#   1.22.2  the same program on libnbd 1.22.2's libnbd.so.0 ($peer13/run):
#           the same binary for Go, OCaml and Rust (they link
#           libnbd.so.0), the tree's nbd module for Python
#   1.14.2  Python and OCaml: Debian 12's own binding (python3-libnbd,
#           libnbd-ocaml-dev) on its libnbd, when installed
# Python runs under /usr/bin/python3 on every side; ours and 1.22.2 run
# one binary for the others.
# One warm-up round, then ROUNDS interleaved rounds on one server;
# prints the medians of each side's reads/s and client CPU per 1000
# reads (first call to last return), and the medians of the per-round
# ratios ours/other.
#
#   ROUNDS (5), BINDINGS ("python go ocaml rust"), THREADS (8),
#   READS (25), RDELAY (10ms; 0: no delay filter), PEER13 (1.22.2)
# 200 reads take about 20 ms of CPU: the CPU figures need more reads
# (THREADS=4 READS=5000 RDELAY=0) to mean anything.
set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
bindings="${BINDINGS:-python go ocaml rust}"
threads="${THREADS:-8}"
reads="${READS:-25}"
rdelay="${RDELAY:-10ms}"
require_peer13_run
require nbdkit

tmpdir="$(mktemp -d)"
sock="$tmpdir/sock"
trap 'stop_server; rm -rf "$tmpdir"' EXIT

ours_env=("$builddir/run" env "${unfair_env[@]}")
peer13_env=(env -u LD_LIBRARY_PATH "${unfair_env[@]}" "$peer13/run")

# build_BINDING: build the client into $tmpdir and set the arrays
# side_NAME (the command, before SOCKET THREADS READS) and sides (the
# names, ours first).
build_python ()
{
  local py=/usr/bin/python3 client="$bench_dir/threads-client.py"
  ls "$builddir"/python/libnbdmod*.so >/dev/null 2>&1 ||
    die "build the tree first (python/libnbdmod*.so is missing)"
  side_ours=("${ours_env[@]}" "$py" "$client")
  side_peer13=(env PYTHONPATH="$builddir/python" "${peer13_env[@]}"
               "$py" "$client")
  sides=(ours peer13)
  if env -u PYTHONPATH -u LD_LIBRARY_PATH "$py" -c 'import nbd' 2>/dev/null
  then
    side_debian=(env -u PYTHONPATH -u LD_LIBRARY_PATH "${unfair_env[@]}"
                 "$py" "$client")
    sides+=(debian)
  else
    echo "python: no python3-libnbd for $py, 1.14.2 left out"
  fi
}

build_go ()
{
  require go
  mkdir "$tmpdir/go"
  cp "$bench_dir/threads-client.go" "$tmpdir/go/main.go"
  cat > "$tmpdir/go/go.mod" <<EOF
module threadsclient

go 1.17

require libguestfs.org/libnbd v0.0.0

replace libguestfs.org/libnbd => $top_srcdir/golang
EOF
  (cd "$tmpdir/go" &&
   env CGO_CFLAGS="-O2 -I$builddir/include -I$top_srcdir/include" \
     CGO_LDFLAGS="-L$builddir/lib/.libs" GOPROXY=off \
     GOFLAGS="-buildvcs=false -mod=mod" go build -o threads-client .)
  same_binary "$tmpdir/go/threads-client"
}

build_ocaml ()
{
  require ocamlfind
  [ -f "$builddir/ocaml/mlnbd.cmxa" ] ||
    die "build the tree first (ocaml/mlnbd.cmxa is missing)"
  mkdir "$tmpdir/ml"
  # An OCaml source's name must be a module name.
  cp "$bench_dir/threads-client.ml" "$tmpdir/ml/threads_client.ml"
  (cd "$tmpdir/ml" &&
   ocamlfind ocamlopt -thread -package unix,threads.posix \
     -I "$builddir/ocaml" -linkpkg "$builddir/ocaml/mlnbd.cmxa" \
     threads_client.ml -ccopt "-L$builddir/lib/.libs" -o threads-client)
  same_binary "$tmpdir/ml/threads-client"
  # Debian's own binding (libnbd-ocaml-dev), the same source.
  if env -u OCAMLPATH ocamlfind query nbd >/dev/null 2>&1; then
    mkdir "$tmpdir/ml-debian"
    cp "$tmpdir/ml/threads_client.ml" "$tmpdir/ml-debian/"
    (cd "$tmpdir/ml-debian" &&
     env -u OCAMLPATH -u LD_LIBRARY_PATH ocamlfind ocamlopt -thread \
       -package unix,threads.posix,nbd -linkpkg threads_client.ml \
       -o threads-client)
    side_debian=(env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}"
                 "$tmpdir/ml-debian/threads-client")
    sides+=(debian)
  else
    echo "ocaml: no libnbd-ocaml-dev, 1.14.2 left out"
  fi
}

# The crate without its default features: "log" turns the handle's
# debug messages on, and "tokio" is not used here.
build_rust ()
{
  require cargo
  mkdir -p "$tmpdir/rs/src" "$tmpdir/rs/.cargo"
  cp "$bench_dir/threads-client.rs" "$tmpdir/rs/src/main.rs"
  cat > "$tmpdir/rs/Cargo.toml" <<EOF
[package]
name = "threads-client"
version = "0.1.0"
edition = "2021"

[dependencies]
libnbd = { path = "$top_srcdir/rust", default-features = false }
libc = "0.2"

[workspace]
EOF
  cat > "$tmpdir/rs/.cargo/config.toml" <<'EOF'
[source.crates-io]
replace-with = "debian-packages"
[source.debian-packages]
directory = "/usr/share/cargo/registry"
[net]
offline = true
EOF
  (cd "$tmpdir/rs" &&
   env CARGO_HOME="$tmpdir/rs/.cargo-home" \
     LIBNBD_LIB_DIR="$builddir/lib/.libs" \
     cargo build --release --offline --quiet)
  same_binary "$tmpdir/rs/target/release/threads-client"
}

# same_binary BIN: both sides run BIN, on ours and on 1.22.2.
same_binary ()
{
  side_ours=("${ours_env[@]}" "$1")
  side_peer13=("${peer13_env[@]}" "$1")
  sides=(ours peer13)
}

# run_rounds: one warm-up round, then $rounds rounds of every side in
# turn; each side's output lines in $tmpdir/out.SIDE.
run_rounds ()
{
  local r s
  for s in "${sides[@]}"; do : > "$tmpdir/out.$s"; done
  for r in $(seq 0 "$rounds"); do
    for s in "${sides[@]}"; do
      local -n cmd="side_$s"
      if [ "$r" -eq 0 ]; then
        "${cmd[@]}" "$sock" "$threads" "$reads" >/dev/null
      else
        "${cmd[@]}" "$sock" "$threads" "$reads" >> "$tmpdir/out.$s"
      fi
    done
  done
}

# ratio_median SIDE FIELD: the median over the rounds of ours/SIDE in
# FIELD (1 reads/s, 2 CPU per 1000 reads).
ratio_median ()
{
  paste -d' ' <(cut -d' ' -f"$2" "$tmpdir/out.ours") \
              <(cut -d' ' -f"$2" "$tmpdir/out.$1") |
    awk '{ printf "%.3f\n", $1 / $2 }' | median
}

report ()
{
  local b=$1 s
  for s in "${sides[@]}"; do
    printf '%-7s %-7s libnbd %-7s reads/s %4.0f  CPU s/1000 reads %.4f' \
      "$b" "$s" \
      "$(cut -d' ' -f3 "$tmpdir/out.$s" | sort -u | paste -sd,)" \
      "$(cut -d' ' -f1 "$tmpdir/out.$s" | median)" \
      "$(cut -d' ' -f2 "$tmpdir/out.$s" | median)"
    if [ "$s" != ours ]; then
      printf '  ours/%s: reads/s %.2f, CPU %.2f' "$s" \
        "$(ratio_median "$s" 1)" "$(ratio_median "$s" 2)"
    fi
    echo
  done
}

echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg);" \
     "$threads threads x $reads reads of 4 KiB, rdelay=$rdelay, $rounds rounds"
if [ "$rdelay" = 0 ]; then
  start_server memory 1M
else
  start_server --filter=delay memory 1M rdelay="$rdelay"
fi
for b in $bindings; do
  case $b in
    python|go|ocaml|rust) "build_$b" ;;
    *) die "unknown binding $b (python go ocaml rust)" ;;
  esac
  run_rounds
  report "$b"
done
