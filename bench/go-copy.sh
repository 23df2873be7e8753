#!/bin/bash -
# bench/go-copy.sh: the Go example aio_copy copying a SIZE nbdkit
# pattern export, side by side in one run with: itself without
# SetPreadInitialize(false), the same Go source built against Debian's
# libnbd, and Debian's nbdcopy (--synchronous and default).  Run by
# hand; see bench/README.md.
#
# One warm-up round (which also checks every command's output by
# checksum), then ROUNDS rounds running each command once, in turn,
# each against a fresh nbdkit.  Prints per-round elapsed seconds and
# the client's CPU seconds (which drift less on a shared machine), their
# medians, and the medians of the per-round ratios to aio_copy (ours).
#
# Settings (environment): ROUNDS (5), SIZE (2560M), REQUESTS (16),
# REQUEST_SIZE (262144), NAMES (the commands, default all five).  See
# functions.sh for BUILDDIR.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
size="${SIZE:-2560M}"
requests="${REQUESTS:-16}"
request_size="${REQUEST_SIZE:-262144}"

require nbdkit nbdcopy go sha256sum awk getconf join /usr/bin/time
ours_go="$builddir/golang/examples/aio_copy/aio_copy"
[ -x "$ours_go" ] || die "no $ours_go: build the tree (make) first"
[ -f /usr/include/libnbd.h ] ||
  die "no /usr/include/libnbd.h: apt-get install libnbd-dev"

# The same Go source against Debian's header and library only.
peer_go="$peer_dir/aio_copy"
mkdir -p "$peer_dir"
(cd "$top_srcdir/golang" &&
 env -u LD_LIBRARY_PATH -u CGO_LDFLAGS CGO_CFLAGS=-O2 GOPROXY=off \
   GOFLAGS=-buildvcs=false go build -o "$peer_go.tmp" ./examples/aio_copy)
mv -f "$peer_go.tmp" "$peer_go"

peer_env=(env -u LD_LIBRARY_PATH -u LD_PRELOAD "${unfair_env[@]}")
ours_env=("$builddir/run" env "${unfair_env[@]}")
echo "ours aio_copy maps: $("${ours_env[@]}" ldd "$ours_go" |
                          awk '/libnbd\.so/ { print $3 }')"
echo "peer aio_copy maps: $("${peer_env[@]}" ldd "$peer_go" |
                          awk '/libnbd\.so/ { print $3 }')"
echo "nbdcopy: $(command -v nbdcopy) ($(nbdcopy --version | head -1))"

go_args=(-requests "$requests" -request-size "$request_size")
# NAMES picks a subset; aio_copy must be in it (the ratios use it).
read -r -a names <<< \
  "${NAMES:-aio_copy aio_copy-init aio_copy-debian nbdcopy-sync nbdcopy}"
# command NAME: the client command line, the export URI appended.
command_of ()
{
  case "$1" in
    aio_copy) echo "${ours_env[*]} $ours_go ${go_args[*]}" ;;
    aio_copy-init)
      echo "${ours_env[*]} $ours_go ${go_args[*]} -pread-initialize" ;;
    aio_copy-debian) echo "${peer_env[*]} $peer_go ${go_args[*]}" ;;
    nbdcopy-sync) echo "${peer_env[*]} nbdcopy --synchronous" ;;
    nbdcopy) echo "${peer_env[*]} nbdcopy" ;;
  esac
}
# Where the copy goes: stdout for the Go program, null: for nbdcopy
# (its "-" is a pipe, which would force its synchronous loop).
target_of ()
{
  case "$1" in
    nbdcopy*) echo "null:" ;;
    *) echo "> /dev/null" ;;
  esac
}

tmpdir="$(mktemp -d)"
trap 'rm -rf "$tmpdir"' EXIT

serve ()
{
  nbdkit -U - pattern "size=$size" --run "$1"
}

# Warm-up, and the output check: every command must produce the export.
want=""
for n in "${names[@]}"; do
  case "$n" in
    nbdcopy*) got="$(serve "$(command_of "$n") \"\$uri\" - | sha256sum")" ;;
    *) got="$(serve "$(command_of "$n") \"\$uri\" | sha256sum")" ;;
  esac
  [ -z "$want" ] && want="$got"
  [ "$got" = "$want" ] || die "$n: output checksum $got, expected $want"
done
echo "all outputs match: $want"

b0="$(busy_ticks)"; o0="$(own_ticks)"
printf '%-6s' round; printf ' %16s' "${names[@]}"; echo
echo "(elapsed s/client CPU s)"
for r in $(seq 1 "$rounds"); do
  printf '%-6s' "$r"
  for n in "${names[@]}"; do
    serve "/usr/bin/time -f '%e %U %S' -o $tmpdir/time \
           $(command_of "$n") \"\$uri\" $(target_of "$n")"
    read -r s u k < "$tmpdir/time"
    cpu="$(awk -v u="$u" -v k="$k" 'BEGIN { printf "%.2f", u + k }')"
    echo "$s" >> "$tmpdir/$n"
    echo "$r $s" >> "$tmpdir/$n.r"
    echo "$cpu" >> "$tmpdir/$n.cpu"
    echo "$r $cpu" >> "$tmpdir/$n.cpur"
    printf ' %16s' "$s/$cpu"
  done
  echo
done
b1="$(busy_ticks)"; o1="$(own_ticks)"

printf '%-6s' median
for n in "${names[@]}"; do
  printf ' %16s' "$(median < "$tmpdir/$n")/$(median < "$tmpdir/$n.cpu")"
done
echo
# ratio SUFFIX: median over rounds of this command's figure / aio_copy's.
ratio ()
{
  join "$tmpdir/$1$2" "$tmpdir/aio_copy$2" | awk '{ print $2 / $3 }' |
    median
}
printf '%-6s' ratio
for n in "${names[@]}"; do
  printf ' %16s' "$(ratio "$n" .r)/$(ratio "$n" .cpur)"
done
echo
echo "(each cell: elapsed s / client CPU s (user+sys); ratio: median of"
echo " the per-round ratios to aio_copy's; above 1 is slower or costlier)"
bytes="$(nbdkit -U - pattern "size=$size" --run 'nbdinfo --size "$uri"' \
         2>/dev/null || echo 0)"
[ "$bytes" != 0 ] &&
  printf 'aio_copy: %.2f GB/s\n' \
    "$(awk -v b="$bytes" -v s="$(median < "$tmpdir/aio_copy")" \
       'BEGIN { print b / s / 1e9 }')"
other=$(( (b1 - b0) - (o1 - o0) ))
echo "CPU used by other processes meanwhile: $(awk -v t="$other" \
     -v hz="$clk_tck" 'BEGIN { printf "%.1f", t / hz }') s"
