#!/bin/bash -
# dump-vs-debian.sh: the output is byte for byte that of Debian's
# nbddump (libnbd 1.14, whose layout is libnbd 1.22's), plain and in
# colour, for exports with data, holes, repeats and short last lines.
# Not compared: a --length ending inside a line, where 1.14 and 1.22
# squash the short line into "*" and we print it; --offset, which 1.14
# lacks.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires test -x /usr/bin/nbddump
requires debian_nbddump --version
requires nbdkit data --version
requires nbdkit sparse-random --version

compare ()
{
  debian_nbddump "$@" > "$tmp/debian.out"
  nbddump "$@" > "$tmp/ours.out"
  if ! cmp "$tmp/debian.out" "$tmp/ours.out"; then
    echo "$0: FAIL: nbddump $* differs from Debian's"
    diff "$tmp/debian.out" "$tmp/ours.out" | head -20
    exit 1
  fi
}

start_nbdkit d1 data '"Hi!" 0x80 0x7f 0x20 @37 "x" @100 "hello world" @200 0'
compare "$uri"
compare --colour "$uri"
start_nbdkit d2 data '@32768 1 @65535 "hello, world!"
                      @17825790 "spanning" @20000000 0'
compare "$uri"
compare --colour "$uri"
compare -n 4096 "$uri"
start_nbdkit sr sparse-random size=32M seed=11 percent=30
compare "$uri"
compare --colour -n 1048576 "$uri"
start_nbdkit pattern pattern size=100
compare "$uri"
compare --colour "$uri"
echo "$0: OK"
