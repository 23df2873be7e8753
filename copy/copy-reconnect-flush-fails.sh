#!/usr/bin/env bash
# copy-reconnect-flush-fails.sh: a destination that answers every
# flush with NBD_ESHUTDOWN (a server going down, so a reconnect) never
# lets a checkpoint succeed.  An outage ends only when a checkpoint's
# flush succeeds, so with --reconnect=3 the copy must fail after about
# 3 seconds saying so, not reconnect and copy the same range again for
# ever (which it did: 163-226 reconnects in 40 s, issue 44).  The
# timeout below is only a watchdog.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit eval --version
requires timeout --version
make_tmpdir
size=$((4 * 1024 * 1024))
put_random "$tmp/src" 0 $size
truncate -s $size "$tmp/dst"

# The destination keeps its data in $tmp/dst; only its flush fails.
start_nbdkit "$tmp/dst.sock" eval \
  get_size="echo $size" can_write='exit 0' can_flush='exit 0' \
  pread="dd if='$tmp/dst' skip=\$4 count=\$3 \
         iflag=skip_bytes,count_bytes status=none" \
  pwrite="dd of='$tmp/dst' seek=\$4 oflag=seek_bytes conv=notrunc \
          status=none" \
  flush='echo ESHUTDOWN going down >&2; exit 1'

r=0
timeout 60 $VG nbdcopy -v --reconnect=3 --reconnect-delay=0.1:0.5 \
  --checkpoint-bytes=1M "$tmp/src" "$uri" 2> "$tmp/err" || r=$?
grep -v '^libnbd: debug: ' "$tmp/err" | tail -n 20
echo "$0: nbdcopy exited with status $r"
if [ $r = 124 ]; then
  echo "$0: FAIL: nbdcopy was still reconnecting after 60 seconds"
  exit 1
fi
test $r = 1
# It did try again (the failure is a reconnect, not an I/O error) ...
grep -q 'flush failed at offset 0: .*: reconnecting$' "$tmp/err"
grep -q 'reconnected after' "$tmp/err"
# ... and then gave up, naming the window and the last failure.
grep 'the connection kept breaking for 3 seconds' "$tmp/err"
grep 'nbdcopy: the last break: .*flush failed' "$tmp/err"
