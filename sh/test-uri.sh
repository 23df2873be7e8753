#!/usr/bin/env bash
# test-uri.sh: -u, --uri and the old --connect connect h to an NBD URI
# (nbd+unix://) before the commands that follow them run.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

for opt in -u --uri --connect; do
  $VG nbdsh $opt "$uri" -c 'print(h.aio_is_ready(), h.get_size())' \
    > "$tmp/out"
  expect "$tmp/out" "True 1048576"
done

# What one nbdsh writes, the next one reads back from the server.
$VG nbdsh -u "$uri" -c 'h.pwrite(b"written by nbdsh", 4096)'
$VG nbdsh -u "$uri" -c 'print(bytes(h.pread(16, 4096)).decode())' \
  > "$tmp/out"
expect "$tmp/out" "written by nbdsh"
