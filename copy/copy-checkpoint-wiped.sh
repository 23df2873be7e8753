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
use_nbdkit_1_48
requires nbdkit --filter=rate file --version
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
  restart_file_server "$sock" "$tmp/dst" ${1:+32M}
}

# A copy slowed down to a blank destination, killed once 8M are
# durable.
copy_and_kill ()
{
  cp "$tmp/blank" "$tmp/dst"
  server slow
  $VG nbdcopy --checkpoint="$ck" --checkpoint-bytes=4M "$tmp/src" "$dsturi" \
    > "$tmp/killed.out" 2>&1 &
  kill_copy_once_durable $! "$tmp/killed.out" "$ck" $((8 * mib)) $size
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
