#!/usr/bin/env bash
# test-reconnect.sh: nbdkit killed with SIGKILL and started again on
# the same socket, twice, under a dd writing through the mount: with
# --reconnect the requests wait, go again on the new connection, dd
# succeeds, and the export holds what dd wrote.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=delay null --version
make_tmpdir
mkdir "$tmp/mp"

# 32 MiB in 512 writes, each delayed 10 ms by the server: over 5 s.
head -c 32M /dev/urandom > "$tmp/pattern"
truncate -s 32M "$tmp/disk"
server=(--filter=delay file "$tmp/disk" delay-write=10ms)

start_nbdkit "$tmp/sock" "${server[@]}"
start_nbdfuse "$tmp/mp" --reconnect=30 "$tmp/mp" --unix "$tmp/sock" \
              2> "$tmp/err"
write_across_restarts "$tmp/mp/nbd" "$tmp/pattern" "$tmp/sock" \
                      "${server[@]}"
stop_nbdfuse "$tmp/mp"
cat "$tmp/err"
test "$dd_status" = 0
cmp "$tmp/pattern" "$tmp/disk"
test "$(grep -c 'nbdfuse: reconnected after' "$tmp/err")" = 2
grep -q 'nbdfuse: 2 reconnects, waited' "$tmp/err"
