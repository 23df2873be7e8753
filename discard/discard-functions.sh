# discard-functions.sh: helpers for the nbddiscard and nbdzero tests
# (source it).

source "${srcdir:-.}/../tests/functions.sh"

requires nbdkit --version

# Absolute, so that a test may change directory.
builddir=$(cd "${builddir:-.}" && pwd)
top_builddir=$(cd "${top_builddir:-..}" && pwd)

# Ours are libtool wrapper scripts until installed: valgrind (make
# check-valgrind) must go through libtool to reach the binaries.
nbddiscard ()
{
  if [ -n "${VG:-}" ]; then
    "$top_builddir/libtool" --mode=execute $VG "$builddir/nbddiscard" "$@"
  else
    "$builddir/nbddiscard" "$@"
  fi
}
nbdzero ()
{
  if [ -n "${VG:-}" ]; then
    "$top_builddir/libtool" --mode=execute $VG "$builddir/nbdzero" "$@"
  else
    "$builddir/nbdzero" "$@"
  fi
}

make_tmpdir

# serve NAME NBDKIT-ARGS...: nbdkit on $tmp/NAME.sock with the log
# filter writing $tmp/NAME.log, until the test ends; sets $uri.
serve ()
{
  local name=$1
  shift
  rm -f "$tmp/$name.log" "$tmp/$name.mark"
  start_nbdkit "$tmp/$name.sock" --filter=log "$@" logfile="$tmp/$name.log"
}

# fill NAME SIZE: write a pattern (nbdkit's pattern plugin, no byte of
# it zero) over the first SIZE bytes of the export served as NAME,
# then mark its log: the requests seen later are the test's.
fill ()
{
  nbdcopy -- [ nbdkit pattern size="$2" ] "nbd+unix:///?socket=$tmp/$1.sock"
  mark "$1"
}

# mark NAME: the requests in NAME's log so far are left out by
# commands from now on.
mark ()
{
  wc -l < "$tmp/$1.log" > "$tmp/$1.mark"
}

# commands NAME: the requests in NAME's log since its mark, one a line,
# as "Trim offset=0x... count=0x... fua=0" (ids and replies left out).
commands ()
{
  local skip=0
  [ -f "$tmp/$1.mark" ] && skip=$(cat "$tmp/$1.mark")
  tail -n +$((skip + 1)) "$tmp/$1.log" |
    sed -n 's/^.* connection=[0-9]* \(Trim\|Zero\|Flush\|Write\|Extents\) id=[0-9]* \(.*\) \.\.\.$/\1 \2/p;
            s/^.* connection=[0-9]* \(Flush\) id=[0-9]* \.\.\.$/\1/p'
}

# expect_commands NAME: the requests to NAME since its mark are the
# lines on stdin.
expect_commands ()
{
  commands "$1" > "$tmp/commands.out"
  if ! diff -u - "$tmp/commands.out"; then
    echo "$0: FAIL: the requests sent differ (expected -, sent +)"
    exit 1
  fi
}

# map URI: nbdinfo --map, the extents of base:allocation.
map ()
{
  nbdinfo --map "$1"
}

# expect_map URI: the map of URI is the lines on stdin.
expect_map ()
{
  map "$1" > "$tmp/map.out"
  if ! diff -u - "$tmp/map.out"; then
    echo "$0: FAIL: the map differs (expected -, got +)"
    exit 1
  fi
}

# fails STATUS CMD ARGS...: CMD exits with STATUS; its stdout and
# stderr are left in $tmp/out and $tmp/err.
fails ()
{
  local want=$1 status=0
  shift
  "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null || status=$?
  if [ "$status" -ne "$want" ]; then
    echo "$0: FAIL: $* exited with $status, not $want"
    cat "$tmp/out" "$tmp/err"
    exit 1
  fi
}

# says FILE TEXT: FILE is exactly the line TEXT.
says ()
{
  if [ "$(cat "$1")" != "$2" ]; then
    echo "$0: FAIL: ${1##*/} holds, not \"$2\":"
    cat "$1"
    exit 1
  fi
}
