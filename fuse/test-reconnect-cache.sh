#!/usr/bin/env bash
# test-reconnect-cache.sh: as test-reconnect.sh, with the export
# behind nbdkit's cache filter in writeback mode, which acknowledges a
# write once it is in its cache and writes it to the file only on a
# flush: each kill really loses the writes acknowledged since the last
# flush.  nbdfuse writes them again after reconnecting, so the export
# still holds what dd wrote.  With --no-replay (only the requests in
# flight are sent again, as qemu does) it does not: that shows the
# replay is what makes the first run pass.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=delay --filter=cache null --version
make_tmpdir
mkdir "$tmp/mp"

head -c 32M /dev/urandom > "$tmp/pattern"
server=(--filter=delay --filter=cache file "$tmp/disk"
        cache=writeback delay-write=10ms)

# run_once NBDFUSE-OPTIONS...: dd across two restarts; the export is
# left in $tmp/disk.
run_once ()
{
  rm -f "$tmp/disk"
  truncate -s 32M "$tmp/disk"
  start_nbdkit "$tmp/sock" "${server[@]}"
  start_nbdfuse "$tmp/mp" --reconnect=30 "$@" "$tmp/mp" \
                --unix "$tmp/sock" 2> "$tmp/err"
  write_across_restarts "$tmp/mp/nbd" "$tmp/pattern" "$tmp/sock" \
                        "${server[@]}"
  stop_nbdfuse "$tmp/mp"
  cat "$tmp/err"
  test "$dd_status" = 0
  test "$(grep -c 'nbdfuse: reconnected after' "$tmp/err")" = 2
  kill_nbdkit "$tmp/sock"
  rm -f "$tmp/sock" "$tmp/sock.pid"
}

# A small buffer: nbdfuse flushes on the way, and the replay is of
# what came after the last of those flushes.
run_once --reconnect-buffer=4M
cmp "$tmp/pattern" "$tmp/disk"
grep -q 'nbdfuse: 2 reconnects, waited .* replayed [1-9]' "$tmp/err"

run_once --no-replay
if cmp -s "$tmp/pattern" "$tmp/disk"; then
  echo "$0: FAIL: equal without the replay: the kills lost nothing"
  exit 1
fi
