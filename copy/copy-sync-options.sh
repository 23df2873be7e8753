#!/usr/bin/env bash
# copy-sync-options.sh: --synchronous (and a pipe source) obeys
# --destination-is-zero (no zero or trim request at all, holes keep what
# the destination held) and --allocated (every byte written or zeroed
# without trim), as libnbd 1.24.4's nbdcopy does; what reaches the
# server is read from nbdkit's log filter.  Where 1.24.4's nbdcopy is
# at hand, the same assertions are made on it.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires python3 --version
requires nbdkit memory --version
requires nbdkit --filter=log null --version
make_tmpdir
size=$((4 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/junk"
truncate -s $size "$tmp/src"
put_random "$tmp/src" $((192 * 1024)) $((128 * 1024))
dd if=/dev/zero of="$tmp/src" bs=64k seek=10 count=4 conv=notrunc status=none
put_random "$tmp/src" 3000000 1000

# check LOG MODE: what the copy sent, as MODE says it must be.
check ()
{
  python3 - "$1" "$2" $size <<'EOF'
import re, sys
log, mode, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
cover = bytearray(size)
zeroes = 0
for line in open(log):
    m = re.search(r' (Write|Zero|Trim) id=\d+ offset=(0x[0-9a-f]+) '
                  r'count=(0x[0-9a-f]+)(.*)', line)
    if not m:
        continue
    kind, off, cnt = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
    if kind != "Write":
        zeroes += 1
        if mode == "is-zero":
            sys.exit("%s: %s request with --destination-is-zero: %s"
                     % (log, kind, line.strip()))
        if mode == "allocated" and (kind == "Trim" or "trim=1" in line):
            sys.exit("%s: a request may make a hole with --allocated: %s"
                     % (log, line.strip()))
    cover[off:off + cnt] = b"\1" * cnt
if mode == "allocated" and cover.count(0) != 0:
    sys.exit("%s: %d bytes neither written nor zeroed with --allocated"
             % (log, cover.count(0)))
print("%s: %s: %d bytes covered, %d zero requests"
      % (log, mode, size - cover.count(0), zeroes))
EOF
}

# run NAME NBDCOPY OPTIONS...: copy the source onto a destination that
# holds junk, then read the destination back into $tmp/NAME.out.
run ()
{
  local name=$1 prog=$2 sock="$tmp/$1.sock"
  shift 2
  start_nbdkit "$sock" --filter=log memory size=$size \
               logfile="$tmp/$name.log"
  $VG nbdcopy "$tmp/junk" "$uri"
  : > "$tmp/$name.log"
  if [ "$1" = "-" ]; then
    shift
    $prog "$@" - "$uri" < "$tmp/src"
  else
    $prog "$@" "$tmp/src" "$uri"
  fi
  cp "$tmp/$name.log" "$tmp/$name.copy.log"
  $VG nbdcopy "$uri" "$tmp/$name.out"
}

# In a hole of the source, or in its zero blocks, the junk survives
# only with --destination-is-zero; the data is always there.
junk_at ()
{
  cmp -s -n 4096 -i $2:$2 "$tmp/$1.out" "$tmp/junk"
}
data_ok ()
{
  cmp -s -n $((128 * 1024)) -i $((192 * 1024)):$((192 * 1024)) \
    "$tmp/$1.out" "$tmp/src"
  cmp -s -n 1000 -i 3000000:3000000 "$tmp/$1.out" "$tmp/src"
}

progs=("$VG nbdcopy")
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ -x "$peer/nbdcopy" ]; then
  progs+=("$peer/nbdcopy")
else
  echo "$0: libnbd 1.24.4's nbdcopy is not in $peer: testing ours only"
fi

i=0
for prog in "${progs[@]}"; do
  i=$((i + 1))
  for how in --synchronous -; do
    n=$i$how
    run "z$n" "$prog" $how --destination-is-zero
    check "$tmp/z$n.copy.log" is-zero
    data_ok "z$n"
    junk_at "z$n" 0
    junk_at "z$n" $((2 * 1024 * 1024))

    run "a$n" "$prog" $how --allocated
    check "$tmp/a$n.copy.log" allocated
    cmp "$tmp/a$n.out" "$tmp/src"

    run "d$n" "$prog" $how
    check "$tmp/d$n.copy.log" default
    cmp "$tmp/d$n.out" "$tmp/src"
  done
done
