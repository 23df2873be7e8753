#!/bin/bash -
# compat-sid-binaries.sh: Debian sid's libnbd 1.24.4 tools (nbdinfo,
# nbdcopy, nbddump, nbdfuse, built against 1.24) run on this library
# and print and return what they print and return on their own 1.24.4,
# against the same servers; --version shows our library's version.
# Needs the tree scripts/peer-libnbd-1.24.sh unpacks.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

D=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
L=$D/R/usr/lib/x86_64-linux-gnu
if [ ! -x "$D/run" ] || [ ! -x "$D/R/usr/bin/nbdinfo" ]; then
  echo "$0: SKIP: no libnbd 1.24.4 tree in $D" \
       "(scripts/peer-libnbd-1.24.sh makes it)"
  exit 77
fi
if ldd "$LIBNBD_BUILT_LIBRARY" | grep libasan > /dev/null; then
  echo "$0: SKIP: the library is built with AddressSanitizer"
  exit 77
fi
requires nbdkit --version
make_tmpdir

# ours PROG ARGS / theirs PROG ARGS: sid's PROG on our library or on
# its own, with sid's loader and C library in both cases.
ours ()
{
  local p=$1; shift
  "$L/ld-linux-x86-64.so.2" \
    --library-path "$(dirname "$LIBNBD_BUILT_LIBRARY"):$L" \
    "$D/R/usr/bin/$p" "$@"
}
theirs ()
{
  local p=$1; shift
  "$D/run" "$D/R/usr/bin/$p" "$@"
}

# same NAME PROG ARGS: the same standard output and exit status on
# both; standard error may name the library differently.
same ()
{
  local name=$1 r1=0 r2=0; shift
  ours "$@" > "$tmp/$name.ours" 2> "$tmp/$name.ours.err" || r1=$?
  theirs "$@" > "$tmp/$name.theirs" 2> "$tmp/$name.theirs.err" || r2=$?
  if [ "$r1" != "$r2" ]; then
    echo "$0: $*: exit $r1 on ours, $r2 on 1.24.4"
    cat "$tmp/$name.ours.err" "$tmp/$name.theirs.err"
    exit 1
  fi
  if ! cmp -s "$tmp/$name.ours" "$tmp/$name.theirs"; then
    echo "$0: $*: output differs (ours, then 1.24.4):"
    diff -u "$tmp/$name.ours" "$tmp/$name.theirs" || :
    exit 1
  fi
  echo "same: $* (exit $r1)"
}

# The programs really load our library, at its 1.24 symbol versions.
ours nbdinfo --version > "$tmp/version"
v=$(sed -n 's/^libnbd \([^ ]*\).*/\1/p' "$tmp/version")
want=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' \
         "${builddir:-.}/../config.h")
if [ "$v" != "$want" ]; then
  cat "$tmp/version"
  echo "$0: sid's nbdinfo shows libnbd '$v', not ours ($want)"; exit 1
fi
grep -qx "nbdinfo 1.24.4" "$tmp/version"
for p in nbdcopy nbddump; do
  ours $p --version | grep -qx "libnbd $v"
done
echo "ours: sid's tools run on libnbd $v"

# A read-only export with data and holes, for the readers.
start_nbdkit "$tmp/ro.sock" -r sparse-random size=8M seed=11 \
  percent=30 runlength=65536
ro=$uri
same info-plain nbdinfo "$ro"
same info-json nbdinfo --json "$ro"
same info-map nbdinfo --map "$ro"
same info-map-totals nbdinfo --map --totals "$ro"
same info-size nbdinfo --size "$ro"
same info-can-flush nbdinfo --can flush "$ro"
same info-can-write nbdinfo --can write "$ro"
same info-is-ro nbdinfo --is read-only "$ro"
same info-has-alloc nbdinfo --has base:allocation "$ro"
same info-list nbdinfo --list "$ro"
same info-bad nbdinfo "nbd+unix:///?socket=$tmp/nothing.sock"
same dump nbddump --length=1M "$ro"
same dump-whole nbddump "$ro"

# nbdcopy from NBD to a file, then the file into a writable server.
ours nbdcopy -- "$ro" "$tmp/ours.img"
theirs nbdcopy -- "$ro" "$tmp/theirs.img"
cmp "$tmp/ours.img" "$tmp/theirs.img"
start_nbdkit "$tmp/rw.sock" memory 8M
ours nbdcopy -- "$tmp/ours.img" "$uri"
theirs nbdcopy -- "$uri" "$tmp/back.img"
cmp "$tmp/ours.img" "$tmp/back.img"
same copy-to-null nbdcopy -- "$ro" null:
same copy-bad nbdcopy -- "nbd+unix:///?socket=$tmp/nothing.sock" null:
echo "same: nbdcopy nbd -> file -> nbd"

# nbdfuse: the export as a file, read through the kernel.
if [ -x "$D/R/usr/bin/nbdfuse" ] && [ -c /dev/fuse ] &&
   command -v fusermount3 > /dev/null; then
  mkdir "$tmp/mnt"
  ours nbdfuse -r "$tmp/mnt/disk" "$ro" &
  fuse_pid=$!
  cleanup_fn "fusermount3 -u '$tmp/mnt' 2>/dev/null; kill $fuse_pid 2>/dev/null"
  for _ in $(seq 100); do [ -f "$tmp/mnt/disk" ] && break; sleep 0.1; done
  if [ -f "$tmp/mnt/disk" ]; then
    cmp "$tmp/mnt/disk" "$tmp/theirs.img"
    fusermount3 -u "$tmp/mnt"
    wait $fuse_pid
    echo "same: nbdfuse"
  else
    echo "nbdfuse did not mount here (no FUSE?): its check is skipped"
    kill $fuse_pid 2>/dev/null || :
  fi
else
  echo "no FUSE here: sid's nbdfuse is not checked"
fi
echo "$0: OK"
