#!/usr/bin/env bash
# copy-reconnect-kill.sh: with --reconnect, nbdcopy survives its
# destination server killed with SIGKILL and restarted on the same
# Unix socket three times, and its source server once: it exits 0,
# the destination equals the source, and stderr counts the reconnects.
#
# libnbd 1.22.2's nbdcopy has no --reconnect.  Run by hand on the same
# servers (the destination killed and restarted at 15%), on 2026-12-03:
#   $ /var/cache/libnbd-peers/debian13/nbdcopy --progress=3 \
#       nbd+unix:///?socket=$tmp/src.sock nbd+unix:///?socket=$tmp/dst.sock
#   nbdcopy: write at offset 152567808 failed: Transport endpoint is not
#   connected
#   (exit status 1, at the first kill; the destination is left partial)
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=rate null --version
make_tmpdir
size=$((256 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
truncate -s $size "$tmp/dst"

# The destination is slowed to about 20 MB/s so that the copy takes
# long enough to be killed under.
dst=(--filter=rate file "$tmp/dst" rate=160M)
start_nbdkit "$tmp/src.sock" -r file "$tmp/src"
src_uri=$uri
start_nbdkit "$tmp/dst.sock" "${dst[@]}"
dst_uri=$uri

# -v: a line for each reconnect names the end it was for.
start_copy "$tmp/err" "$tmp/progress" -v \
  --reconnect=60 --reconnect-delay=0.1:1 --checkpoint-bytes=8M \
  "$src_uri" "$dst_uri"
# The source is killed early, while reads are surely still to come
# (the reads run ahead of the slowed writes by up to the queue size).
wait_progress "$tmp/progress" 15
restart_nbdkit "$tmp/dst.sock" "${dst[@]}"
wait_progress "$tmp/progress" 30
restart_nbdkit "$tmp/src.sock" -r file "$tmp/src"
for pct in 45 65; do
  wait_progress "$tmp/progress" $pct
  restart_nbdkit "$tmp/dst.sock" "${dst[@]}"
done
finish_copy "$tmp/err"

test $copy_status -eq 0
cmp "$tmp/src" "$tmp/dst"
reconnect_summary "$tmp/err"
test "$reconnects" -ge 4
test "$replayed" -gt 0
# Both ends were reconnected to, not only the destination.
for end in "$src_uri" "$dst_uri"; do
  grep -F -- "$end: " "$tmp/err" > "$tmp/events" || :
  if ! grep -q ': reconnecting$' "$tmp/events"; then
    echo "$0: FAIL: no reconnect to $end"
    exit 1
  fi
done
