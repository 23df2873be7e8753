#!/usr/bin/env bash
# bench/fuse-reconnect.sh: what nbdfuse --reconnect costs when nothing
# fails.  dd writes SIZE_MB MiB (1 MiB writes, O_DIRECT, an fsync at
# the end) through the mount to an nbdkit file export, with nbdfuse
# --reconnect=30 (each write copied into the journal, a flush every
# 64M of writes) and without, interleaved rounds.  Prints the median
# wall time of dd and nbdfuse's CPU time for each, and the ratios on/off.
#
# Settings: ROUNDS (5), SIZE_MB (1024), BUFFER (--reconnect-buffer,
# default nbdfuse's 64M).
set -euo pipefail
source "$(dirname "$0")/functions.sh"

rounds="${ROUNDS:-5}"
size_mb="${SIZE_MB:-1024}"
buffer="${BUFFER:-}"
nbdfuse_bin="$builddir/fuse/.libs/nbdfuse"
[ -x "$nbdfuse_bin" ] || die "no $nbdfuse_bin: build the tree first"
require dd fusermount3 nbdkit

make_tmpdir
trap 'stop_mount; stop_server; rm -rf "$tmpdir"' EXIT
sock="$tmpdir/sock"
mkdir "$tmpdir/mp"
head -c "${size_mb}M" /dev/urandom > "$tmpdir/pattern"
truncate -s "${size_mb}M" "$tmpdir/disk"

mount_pid=
stop_mount ()
{
  if [ -n "$mount_pid" ]; then
    fusermount3 -u "$tmpdir/mp" 2>/dev/null || :
    wait "$mount_pid" 2>/dev/null || :
    mount_pid=
  fi
}

# nbdfuse's user+system CPU so far, in seconds.
nbdfuse_cpu ()
{
  sed 's/.*) //' "/proc/$mount_pid/stat" |
    awk -v t="$clk_tck" '{ printf "%.3f\n", ($12 + $13) / t }'
}

# one_round on|off: appends "WALL CPU" to $tmpdir/on or $tmpdir/off.
one_round ()
{
  local opts=() t0 t1

  if [ "$1" = on ]; then
    opts=(--reconnect=30)
    [ -n "$buffer" ] && opts+=(--reconnect-buffer="$buffer")
  fi
  start_server file "$tmpdir/disk"
  rm -f "$tmpdir/mp.pid"
  env "${unfair_env[@]}" LD_LIBRARY_PATH="$builddir/lib/.libs" \
    "$nbdfuse_bin" -P "$tmpdir/mp.pid" "${opts[@]}" \
    "$tmpdir/mp" --unix "$sock" 2> "$tmpdir/nbdfuse.err" &
  mount_pid=$!
  for _ in $(seq 200); do [ -s "$tmpdir/mp.pid" ] && break; sleep 0.05; done
  [ -s "$tmpdir/mp.pid" ] || die "nbdfuse did not mount"
  t0=$(date +%s.%N)
  dd if="$tmpdir/pattern" of="$tmpdir/mp/nbd" bs=1M oflag=direct \
     conv=notrunc,fsync status=none
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc) $(nbdfuse_cpu)" >> "$tmpdir/$1"
  stop_mount
  stop_server
  cmp "$tmpdir/pattern" "$tmpdir/disk" || die "the export differs ($1)"
}

echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "dd of ${size_mb} MiB through nbdfuse to nbdkit file, $rounds rounds"
: > "$tmpdir/on"; : > "$tmpdir/off"
for r in $(seq "$rounds"); do
  one_round off
  one_round on
done
for m in off on; do
  w=$(awk '{ print $1 }' "$tmpdir/$m" | median)
  c=$(awk '{ print $2 }' "$tmpdir/$m" | median)
  printf '%-4s wall %s s (runs: %s)  nbdfuse CPU %s s\n' "$m" "$w" \
    "$(awk '{ printf "%.2f ", $1 }' "$tmpdir/$m")" "$c"
  eval "${m}_w=$w ${m}_c=$c"
done
# shellcheck disable=SC2154
echo "on/off: wall $(echo "scale=3; $on_w / $off_w" | bc)," \
     "nbdfuse CPU $(echo "scale=3; $on_c / $off_c" | bc)"
