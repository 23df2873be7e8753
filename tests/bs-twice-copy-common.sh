# bs-twice-copy-common.sh: what the misbehave-bs-twice-copy-* tests
# share (source it).  fake-server bs-twice describes the same bytes
# twice in one block status reply (two true base:allocation chunks, the
# first half of the request, then the whole of it).  Laid end to end,
# the second chunk's hole at [256 KiB, 384 KiB) would land on data at
# [768 KiB, 896 KiB), and nbdcopy would write that data as zeroes.

source "${srcdir:-.}/functions.sh"

requires test -x "${builddir:-.}/../copy/nbdcopy"

make_tmpdir
# Under make check-valgrind, valgrind must run the real nbdcopy, not
# libtool's wrapper script in its place.
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi
twice='server described the same extents twice'

# The source as it is, read whole: its hole reads as zeroes, and the
# bytes a shifted hole would cover are data (the pattern: each 8-byte
# offset as a big-endian number, 0xc0000 at 768 KiB).
nbdcopy --no-extents -- [ fake-server bs-twice ] "$tmp/ref"
cmp -n $((128 * 1024)) -i $((256 * 1024)):0 "$tmp/ref" /dev/zero
test "$(od -An -tx1 -j $((768 * 1024)) -N 8 "$tmp/ref" | tr -d ' \n')" = \
     00000000000c0000

# fetch DEST FILE: what DEST (a file or an NBD URI) holds, into FILE.
fetch ()
{
  case "$1" in
    nbd*) nbdcopy "$1" "$2" ;;
    *) cp "$1" "$2" ;;
  esac
}

# refused SCENARIO DEST OPTIONS...: nbdcopy fails, saying why.  Had it
# succeeded, cmp shows what it wrote.
refused ()
{
  local scenario=$1 dest=$2
  shift 2
  echo "== nbdcopy $* [ fake-server $scenario ] $dest"
  if $VG nbdcopy "$@" -- [ fake-server "$scenario" ] "$dest" \
       2> "$tmp/err"; then
    cat "$tmp/err"
    if [ "$dest" != null: ]; then
      fetch "$dest" "$tmp/got"
      cmp "$tmp/ref" "$tmp/got" || :
    fi
    echo "$0: FAIL: nbdcopy $* succeeded"
    exit 1
  fi
  cat "$tmp/err"
  grep -q "block status failed at offset 0: $twice\$" "$tmp/err"
}
