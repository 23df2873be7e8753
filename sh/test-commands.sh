#!/usr/bin/env bash
# test-commands.sh: -c and --command run in command line order, mixed
# with -u, sharing one namespace; exit() in a command sets the status.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

$VG nbdsh -c 'x = 1' --command 'x *= 10' -c 'x += 2' -c 'print(x)' \
  > "$tmp/out"
expect "$tmp/out" "12"

# A function defined by one -c sees h and is called by a later one.
$VG nbdsh -c 'print("created", h.aio_is_created())' \
          -u "$uri" \
          -c '
def size():
    return h.get_size()
' \
          -c 'print("ready", h.aio_is_ready(), size())' > "$tmp/out"
expect "$tmp/out" "created True
ready True 1048576"

# nbd, os and sys are there without an import.
$VG nbdsh -c 'print(type(h) is nbd.NBD, os.sep, sys.version_info[0])' \
  > "$tmp/out"
expect "$tmp/out" "True / 3"

# -c does not go interactive, so stdin is left alone.
echo 'print("not read")' | $VG nbdsh -c 'print("only")' > "$tmp/out"
expect "$tmp/out" "only"

status=0
$VG nbdsh -c 'print("before")' -c 'exit(3)' -c 'print("after")' \
  > "$tmp/out" || status=$?
test $status -eq 3
expect "$tmp/out" "before"
