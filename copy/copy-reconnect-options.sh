#!/usr/bin/env bash
# copy-reconnect-options.sh: bad values of the reconnect options exit 1
# with a message naming the option; --reconnect with a pipe or a
# [ CMD ] subprocess end (neither can be reconnected nor re-read) is
# refused the same way; good values are accepted.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit memory --version
make_tmpdir
head -c 100000 /dev/urandom > "$tmp/src"

# fails NAME ARGS...: nbdcopy ARGS exits 1 with NAME in its message.
fails ()
{
  local name=$1 status=0
  shift
  $VG nbdcopy "$@" 2>"$tmp/err" </dev/null >/dev/null || status=$?
  cat "$tmp/err"
  if [ $status -ne 1 ]; then
    echo "$0: FAIL: nbdcopy $* exited with $status, not 1"
    exit 1
  fi
  if ! grep -q -- "$name" "$tmp/err"; then
    echo "$0: FAIL: the message for nbdcopy $* does not name $name"
    exit 1
  fi
}

f=("$tmp/src" "$tmp/dst")
for v in abc -1 1x '' 1e9 inf nan; do
  fails --reconnect --reconnect="$v" "${f[@]}"
  fails --request-timeout --reconnect=10 --request-timeout="$v" "${f[@]}"
  fails --checkpoint-seconds --reconnect=10 --checkpoint-seconds="$v" \
    "${f[@]}"
done
for v in abc 1 2:1 0:1 -1:2 1: :1 1:x 1:2:3; do
  fails --reconnect-delay --reconnect=10 --reconnect-delay="$v" "${f[@]}"
done
# 64k: under the minimum (1M), a flush every few requests.
for v in abc -1 4X '' 64k; do
  fails --checkpoint-bytes --reconnect=10 --checkpoint-bytes="$v" "${f[@]}"
done

# An end that cannot be reconnected.
fails --reconnect --reconnect=10 - "$tmp/dst"
fails --reconnect --reconnect=10 "$tmp/src" -
fails --reconnect --reconnect=10 -- "$tmp/src" [ nbdkit memory 1M ]
fails --reconnect --reconnect=10 -- [ nbdkit memory 1M ] "$tmp/dst"

# The options that only mean something with --reconnect, without it.
for o in --reconnect-delay=1:2 --checkpoint-bytes=8M \
         --checkpoint-seconds=5 --no-replay; do
  fails "${o%%=*} needs --reconnect" "$o" "${f[@]}"
  fails "${o%%=*} needs --reconnect" --reconnect=0 "$o" "${f[@]}"
done
fails --synchronous --reconnect=10 --synchronous "${f[@]}"

# Good values, on ends that need no reconnecting and on an NBD one.
$VG nbdcopy --reconnect=10 --reconnect-delay=0.5:2 --request-timeout=0 \
  --checkpoint-bytes=1M --checkpoint-seconds=5 "${f[@]}"
cmp "$tmp/src" "$tmp/dst"
start_nbdkit "$tmp/sock" memory size=100000
$VG nbdcopy --reconnect=2.5 --reconnect-delay=0.1:0.1 --request-timeout=7 \
  --checkpoint-bytes=1M --checkpoint-seconds=1 "$tmp/src" "$uri"
$VG nbdcopy --reconnect=0 "$uri" "$tmp/dst2"
cmp "$tmp/src" "$tmp/dst2"
# With --reconnect=0 (off) a pipe is fine, as ever.
$VG nbdcopy --reconnect=0 - "$tmp/dst3" < "$tmp/src"
cmp "$tmp/src" "$tmp/dst3"

for o in --reconnect --reconnect-delay --request-timeout \
         --checkpoint-bytes --checkpoint-seconds --no-replay; do
  $VG nbdcopy --long-options > "$tmp/long"
  grep -q -- "^$o\$" "$tmp/long"
done
