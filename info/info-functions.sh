# info-functions.sh: helpers for the nbdinfo tests (source it).

source "${srcdir:-.}/../tests/functions.sh"

requires nbdkit --version

# Absolute, so that a test may change directory.
builddir=$(cd "${builddir:-.}" && pwd)
top_builddir=$(cd "${top_builddir:-..}" && pwd)

# Our nbdinfo is a libtool wrapper script until installed: valgrind
# (make check-valgrind) must go through libtool to reach the binary.
nbdinfo ()
{
  if [ -n "${VG:-}" ]; then
    "$top_builddir/libtool" --mode=execute $VG \
      "$builddir/nbdinfo" "$@"
  else
    "$builddir/nbdinfo" "$@"
  fi
}

# Debian's nbdinfo (libnbd-bin 1.14) on Debian's own library, the peer
# whose output we compare with.
debian_nbdinfo ()
{
  env -u LD_LIBRARY_PATH /usr/bin/nbdinfo "$@"
}

tmp=$(mktemp -d /tmp/info-test-XXXXXX)
cleanup_fn rm -rf "$tmp"

# start_nbdkit NAME NBDKIT-ARGS...: serve on $tmp/NAME.sock until the
# test ends; sets $uri to the server's URI.
start_nbdkit ()
{
  local name=$1; shift
  local sock="$tmp/$name.sock" pid="$tmp/$name.pid"
  nbdkit -U "$sock" -P "$pid" "$@"
  local i
  for i in $(seq 100); do
    [ -s "$pid" ] && [ -S "$sock" ] && break
    sleep 0.1
  done
  if [ ! -s "$pid" ]; then
    echo "$0: nbdkit $* did not start"
    exit 1
  fi
  cleanup_fn "kill $(cat "$pid")"
  uri="nbd+unix:///?socket=$sock"
}

# expect_status WANT CMD...: run CMD and check its exit status.
expect_status ()
{
  local want=$1; shift
  local got=0
  "$@" || got=$?
  if [ "$got" != "$want" ]; then
    echo "$0: FAIL: $* exited with $got, expected $want"
    exit 1
  fi
}

# json_check FILE PYTHON-EXPR...: FILE parses as JSON (as j) and each
# expression is true.
json_check ()
{
  local f=$1; shift
  python3 - "$f" "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    if not eval("(" + e + ")"):
        sys.exit("FAIL: %s is false for %s" % (e, json.dumps(j)))
PY
}
