# dump-functions.sh: helpers for the nbddump tests (source it).

source "${srcdir:-.}/../tests/functions.sh"

requires nbdkit --version

# Absolute, so that a test may change directory.
builddir=$(cd "${builddir:-.}" && pwd)
top_builddir=$(cd "${top_builddir:-..}" && pwd)

# Our nbddump is a libtool wrapper script until installed: valgrind
# (make check-valgrind) must go through libtool to reach the binary.
nbddump ()
{
  if [ -n "${VG:-}" ]; then
    "$top_builddir/libtool" --mode=execute $VG "$builddir/nbddump" "$@"
  else
    "$builddir/nbddump" "$@"
  fi
}

# Debian's nbddump (libnbd-bin 1.14) on Debian's own library, the peer
# whose output we compare with.
debian_nbddump ()
{
  env -u LD_LIBRARY_PATH /usr/bin/nbddump "$@"
}

tmp=$(mktemp -d /tmp/dump-test-XXXXXX)
cleanup_fn rm -rf "$tmp"

# start_nbdkit NAME NBDKIT-ARGS...: serve on $tmp/NAME.sock until the
# test ends; sets $uri to the server's URI.
start_nbdkit ()
{
  local name=$1 sock pidfile pid
  shift
  sock="$tmp/$name.sock"
  pidfile="$tmp/$name.pid"
  nbdkit -U "$sock" -P "$pidfile" -f "$@" &
  pid=$!
  for _ in $(seq 100); do
    [ -s "$pidfile" ] && break
    sleep 0.1
  done
  if [ ! -s "$pidfile" ]; then
    kill "$pid" 2>/dev/null || :
    echo "$0: nbdkit $* did not start"
    exit 1
  fi
  # Killed, then waited for, so that it is gone before $tmp is.
  cleanup_fn wait "$pid"
  cleanup_fn kill "$pid"
  uri="nbd+unix:///?socket=$sock"
}

# expect NAME ARGS...: run nbddump ARGS and compare its output, byte
# for byte, with $tmp/NAME.exp (which the test wrote).
expect ()
{
  local name=$1
  shift
  nbddump "$@" > "$tmp/$name.out"
  if ! cmp "$tmp/$name.exp" "$tmp/$name.out"; then
    echo "$0: FAIL: nbddump $* ($name): expected, then got:"
    cat "$tmp/$name.exp"
    echo ---
    cat "$tmp/$name.out"
    exit 1
  fi
}

# bytes_read LOGFILE: the sum of the lengths of all reads in an nbdkit
# log filter's file.
bytes_read ()
{
  local sum=0 c
  for c in $(sed -n 's/.* Read id=.* count=\(0x[0-9a-f]*\) .*/\1/p' "$1"); do
    sum=$((sum + c))
  done
  echo "$sum"
}
