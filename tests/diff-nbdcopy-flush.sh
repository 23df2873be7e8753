#!/usr/bin/env bash
# diff-nbdcopy-flush.sh: nbdcopy --flush onto a server that cannot
# flush (an nbdkit eval plugin with no flush method), the differential
# client of issue 27 point 7 (diff.tap runs it with our nbdcopy, then
# 1.22.2's, as $NBDCOPY).  Prints the libnbd.so.0 nbdcopy mapped (read
# by the destination's server command from nbdcopy's /proc/PID/maps),
# nbdcopy's messages and its exit status.
set -u
: "${NBDCOPY:?}"
requires () { command -v "$1" >/dev/null || { echo "SKIP: $1 is not installed" >&2; exit 77; }; }
requires nbdkit
nbdkit eval --dump-plugin >/dev/null 2>&1 ||
  { echo "SKIP: nbdkit has no eval plugin" >&2; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diff-flush.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The destination's command runs as nbdcopy's child: $PPID is nbdcopy.
dest='grep -m1 -o "/.*libnbd\.so[^ ]*" /proc/$PPID/maps > '"$tmp/lib"'
      exec nbdkit eval get_size="echo 1048576" pwrite="cat >/dev/null" \
        can_flush="exit 3"'
$NBDCOPY --flush -- [ nbdkit pattern 1M ] [ sh -c "$dest" ] \
  >"$tmp/out" 2>&1
status=$?
echo "library: $(cat "$tmp/lib" 2>/dev/null)"
# nbdcopy names itself by its path in messages: keep only the text.
sed 's,^[^ :]*nbdcopy: ,nbdcopy: ,' "$tmp/out"
echo "nbdcopy exit status: $status"
