#!/bin/bash -
# misbehave-bs-twice-copy.sh: a server that describes the same bytes
# twice in one block status reply (fake-server bs-twice: two true
# base:allocation chunks, the first half of the request, then the whole
# of it) makes nbdcopy fail with a clear error, with every option that
# uses extents; never copy with its extents moved.  Laid end to end,
# the second chunk's hole at [256 KiB, 384 KiB) would land on data at
# [768 KiB, 896 KiB), and that data would be written as zeroes.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

requires test -x "${builddir:-.}/../copy/nbdcopy"
requires nbdkit --version
requires nbdkit memory --version

make_tmpdir
# Under make check-valgrind, valgrind must run the real nbdcopy, not
# libtool's wrapper script in its place.
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi

# The source as it is, read whole: its hole reads as zeroes, and the
# bytes a shifted hole would cover are data (the pattern: each 8-byte
# offset as a big-endian number, 0xc0000 at 768 KiB).
$VG nbdcopy --no-extents -- [ fake-server bs-twice ] "$tmp/ref"
cmp -n $((128 * 1024)) -i $((256 * 1024)):0 "$tmp/ref" /dev/zero
test "$(od -An -tx1 -j $((768 * 1024)) -N 8 "$tmp/ref" | tr -d ' \n')" = \
     00000000000c0000

start_nbdkit "$tmp/sock" memory 1M
twice='server described the same extents twice'

# refused SCENARIO DEST OPTIONS...: nbdcopy fails with the reason.  Had
# it succeeded, cmp shows what it wrote.
refused ()
{
  local scenario=$1 dest=$2
  shift 2
  echo "== nbdcopy $* [ fake-server $scenario ] $dest"
  if $VG nbdcopy "$@" -- [ fake-server "$scenario" ] "$dest" \
       2> "$tmp/err"; then
    cat "$tmp/err"
    if [ "$dest" = "$uri" ]; then
      nbdcopy "$uri" "$tmp/got"
    else
      cp "$dest" "$tmp/got"
    fi
    cmp "$tmp/ref" "$tmp/got" || :
    echo "$0: FAIL: nbdcopy $* succeeded"
    exit 1
  fi
  cat "$tmp/err"
  grep -q "block status failed at offset 0: $twice\$" "$tmp/err"
}

for opts in "" --allocated --synchronous "-C 4" "--threads=4" \
            "--request-size=65536" "--sparse=65536" "-S 0" \
            "--blkhash"; do
  rm -f "$tmp/out"
  # shellcheck disable=SC2086
  refused bs-twice "$tmp/out" $opts
  # shellcheck disable=SC2086
  refused bs-twice "$uri" $opts
done
rm -f "$tmp/out"
truncate -s 1M "$tmp/out"
refused bs-twice "$tmp/out" --destination-is-zero
refused bs-twice "$uri" --destination-is-zero
refused bs-twice null: --blkhash

# The whole request first, then its first half: described twice too.
refused bs-twice-reversed "$tmp/out"
refused bs-twice-reversed "$uri" --allocated

# Without extents the copy is right (the reference was made so, once
# more here to the other destination).
$VG nbdcopy --no-extents -- [ fake-server bs-twice ] "$uri"
nbdcopy "$uri" "$tmp/got"
cmp "$tmp/ref" "$tmp/got"
