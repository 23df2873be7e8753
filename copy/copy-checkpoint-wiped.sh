#!/usr/bin/env bash
# copy-checkpoint-wiped.sh: a --checkpoint copy of a sparse source is
# killed with SIGKILL; run again over the same destination it resumes
# and ends equal, but run again over a destination wiped in between
# (blank, the same size, on the same socket) it must refuse with exit
# status 3 and leave the destination alone.  The source has data only
# between the 16 fixed places the file samples, which are zero, so
# only samples of the data made durable can tell the blank disk from
# the one written to (issue 44: it resumed, exit 0, 18 MB wrong).
source "${srcdir:-.}/copy-functions.sh"
set -e
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
nbdkit148=$peer/nbdkit
if ! "$nbdkit148" --filter=rate file --version >/dev/null 2>&1; then
  echo "$0: SKIP: needs nbdkit 1.48 in $peer (scripts/peer-libnbd-1.24.sh):"
  echo "$0: Debian 12's nbdkit 1.32 aborts when a client dies mid-write"
  exit 77
fi
make_tmpdir
mib=$((1024 * 1024))
size=$((48 * mib))
# 1M of data in the middle of every 3M; the fixed samples are at 3M * i.
truncate -s $size "$tmp/src"
for i in $(seq 0 15); do
  put_random "$tmp/src" $((i * 3 * mib + mib)) $mib
done
truncate -s $size "$tmp/blank"
ck="$tmp/ck"
sock="$tmp/dst.sock"
dsturi="nbd+unix:///?socket=$sock"

# server [slow]: (re)start the destination on the same socket, slowed
# to about 4M/s if asked.
server ()
{
  local args=(file "$tmp/dst")
  [ "$1" != slow ] || args=(--filter=rate file "$tmp/dst" rate=32M)
  [ ! -s "$sock.pid" ] || kill_nbdkit "$sock"
  rm -f "$sock" "$sock.pid"
  "$nbdkit148" -U "$sock" -P "$sock.pid" -f "${args[@]}" &
  wait_for_file "$sock.pid" nbdkit
}
cleanup_fn sh -c "kill \$(cat '$sock.pid') 2>/dev/null || :"

durable_bytes ()
{
  awk '$1 == "durable" { n += $3 - $2 } END { print n + 0 }' "$ck" \
    2>/dev/null || echo 0
}

# A copy slowed down to a blank destination, killed once 8M are
# durable.
copy_and_kill ()
{
  cp "$tmp/blank" "$tmp/dst"
  server slow
  $VG nbdcopy --checkpoint="$ck" --checkpoint-bytes=4M "$tmp/src" "$dsturi" \
    > "$tmp/killed.out" 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    [ "$(durable_bytes)" -ge $((8 * mib)) ] && break
    sleep 0.05
  done
  kill -KILL $pid
  wait $pid || :
  cat "$tmp/killed.out"
  d=$(durable_bytes)
  echo "killed with $d bytes durable"
  if [ "$d" -lt $((8 * mib)) ] || [ "$d" -ge $size ]; then
    echo "$0: the first run should have been killed half-way"
    exit 1
  fi
  # The 16 fixed samples are all of zeroes (one digest): they cannot
  # tell a blank disk.
  test "$(awk '$1 == "sample" { print $3, $4 }' "$ck" | sort -u | wc -l)" = 1
}

# 1. The same destination: resumed, equal.
copy_and_kill
server
$VG nbdcopy --checkpoint="$ck" "$tmp/src" "$dsturi"
cmp "$tmp/src" "$tmp/dst"
[ ! -e "$ck" ]

# 2. The destination wiped: refused, exit 3, nothing written.
copy_and_kill
cp "$tmp/blank" "$tmp/dst"
server
r=0
$VG nbdcopy --checkpoint="$ck" "$tmp/src" "$dsturi" 2> "$tmp/err" || r=$?
cat "$tmp/err"
echo "$0: the resume over a blank destination exited with status $r"
test $r = 3
m="nbdcopy: --checkpoint: $ck: the destination changed since it was"
m+=" checkpointed (at [0-9]*): it does not hold the data made durable there"
grep "$m" "$tmp/err"
cmp "$tmp/blank" "$tmp/dst"
[ -e "$ck" ]
