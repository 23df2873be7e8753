#!/bin/bash -
# dump-vs-124.sh: our nbddump and libnbd 1.24.4's (on its own library)
# print the same bytes, with the same exit status, for exports with
# data, holes, repeats and a short last line, plain and in colour, with
# --length and --offset in plain bytes.  Not compared (see README):
# sizes with suffixes, which 1.24 reads as their leading digits, and a
# --length ending inside a line, whose short line 1.24 folds into "*",
# and an --offset whose first line is zeroes, which 1.24 prints as "*"
# (a repeat of a line it never printed).
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ ! -x "$peer/nbddump" ]; then
  echo "$0: SKIP: libnbd 1.24.4's nbddump is not in $peer" \
       "(scripts/peer-libnbd-1.24.sh makes it)"
  exit 77
fi
requires nbdkit data --version
requires nbdkit sparse-random --version
requires nbdkit pattern --version

compare ()
{
  local s=0
  nbddump "$@" > "$tmp/ours" 2>&1 || s=$?
  echo "status $s" >> "$tmp/ours"
  s=0
  "$peer/nbddump" "$@" > "$tmp/theirs" 2>&1 || s=$?
  echo "status $s" >> "$tmp/theirs"
  if ! cmp "$tmp/theirs" "$tmp/ours"; then
    echo "$0: FAIL: nbddump $* differs from 1.24.4's"
    diff "$tmp/theirs" "$tmp/ours" | head -20
    exit 1
  fi
}

start_nbdkit d1 data '"Hi!" 0x80 0x7f 0x20 @37 "x" @100 "hello world" @200 0'
for o in "" --colour "-n 96" "-o 32" "-o 37 -n 64" --no-colour; do
  compare $o "$uri"
done
start_nbdkit d2 data '@32768 1 @65535 "hello, world!"
                      @17825790 "spanning" @20000000 0'
for o in "" --colour "-n 4096" "-o 65520 -n 48" "--offset=17825776"; do
  compare $o "$uri"
done
start_nbdkit sr sparse-random size=32M seed=11 percent=30
compare "$uri"
compare --colour -n 1048576 "$uri"
start_nbdkit pattern pattern size=100
compare "$uri"
compare --colour "$uri"
compare -o 48 "$uri"
echo "$0: OK"
