#!/usr/bin/env bash
# copy-checkpoint.sh: nbdcopy --checkpoint=FILE killed with SIGKILL in
# the middle of a copy, then run again with the same FILE: the second
# run copies only what the first had not made durable (the nbdkit log
# filter on the destination counts the bytes it writes), the copy is
# identical, --blkhash equals an uninterrupted copy's, and FILE is
# gone at the end.  A source or destination changed in between is
# refused with exit status 3.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit --filter=rate null --version
requires nbdkit --filter=log null --version
make_tmpdir
size=$((48 * 1024 * 1024))
put_random "$tmp/src" 0 $size
truncate -s $size "$tmp/dst"
ck="$tmp/ck"
sock="$tmp/dst.sock"
dsturi="nbd+unix:///?socket=$sock"

# server [FILTER PARAMS...]: the destination server, restarted with
# another filter as needed; the last one started is killed at exit.
server ()
{
  local filter=()
  [ $# = 0 ] || { filter=(--filter="$1"); shift; }
  [ ! -s "$sock.pid" ] || kill "$(cat "$sock.pid")" 2>/dev/null || :
  sleep 0.2
  rm -f "$sock" "$sock.pid"
  start_nbdkit "$sock" "${filter[@]}" file "$tmp/dst" "$@"
}
cleanup_fn sh -c "kill \$(cat '$sock.pid') 2>/dev/null || :"

# Whether the checkpoint file has the start of the export durable.
durable_at_zero ()
{
  awk '$1 == "durable" && $2 == 0 { found = 1 } END { exit !found }' \
    "$ck" 2>/dev/null
}

# Start a copy slowed down to about 16M/s, and SIGKILL it once it has
# made at least 8M durable, the first range among them (case 3 changes
# the destination there; the workers' ranges end in any order), but is
# far from done.  Sets d to the bytes it made durable.
copy_and_kill ()
{
  server rate rate=16M
  nbdcopy --checkpoint="$ck" --checkpoint-bytes=4M "$@" \
    "$tmp/src" "$dsturi" > "$tmp/killed.out" 2>&1 &
  kill_copy_once_durable $! "$tmp/killed.out" "$ck" $((8 * 1024 * 1024)) \
    $size durable_at_zero
  d=$(checkpoint_durable "$ck")
}

# must_refuse MESSAGE: the same command run again must exit 3 saying
# MESSAGE, and leave the destination as it was.
must_refuse ()
{
  local r
  cp "$tmp/dst" "$tmp/dst.before"
  set +e
  nbdcopy --checkpoint="$ck" "$tmp/src" "$dsturi" 2> "$tmp/err"; r=$?
  set -e
  cat "$tmp/err"
  [ $r = 3 ]
  grep "$1" "$tmp/err"
  cmp "$tmp/dst.before" "$tmp/dst"
}

# 1. Resume: equal, fewer bytes written, the same blkhash.
expected=$(nbdcopy --blkhash "$tmp/src" null:)
copy_and_kill --blkhash
server log logfile="$tmp/log"
nbdcopy --checkpoint="$ck" --checkpoint-bytes=4M --blkhash \
  "$tmp/src" "$dsturi" > "$tmp/hash" 2> "$tmp/err"
cat "$tmp/err"
grep "resuming from $ck: $d of $size bytes are copied already" "$tmp/err"
written=0
for c in $(grep -E ' (Write|Zero) ' "$tmp/log" | grep -o 'count=0x[0-9a-f]*'); do
  written=$((written + ${c#count=}))
done
echo "second run wrote $written of $size bytes"
if [ "$written" -ge $size ] || [ "$written" -lt $((size - d)) ]; then
  echo "$0: the second run should write what was not durable, and only that"
  exit 1
fi
cmp "$tmp/src" "$tmp/dst"
[ "$(cat "$tmp/hash")" = "$expected" ]
[ ! -e "$ck" ]

# 2. The source changed in between (a local file: its modification
# time tells): refused, and nothing is written.
truncate -s 0 "$tmp/dst"; truncate -s $size "$tmp/dst"
copy_and_kill
put_random "$tmp/src" $((size - 4096)) 4096
server
must_refuse "the source is not the one checkpointed"
rm -f "$ck"

# 3. The destination changed where it was durable: refused.
truncate -s 0 "$tmp/dst"; truncate -s $size "$tmp/dst"
copy_and_kill
put_random "$tmp/dst" 0 4096
server
must_refuse "the destination changed since it was checkpointed (at 0)"
