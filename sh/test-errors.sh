#!/usr/bin/env bash
# test-errors.sh: an nbd.Error from -u or -c ends nbdsh with exit 1 and
# one line "nbdsh: command line script failed: ...", or with the
# traceback when libnbd debugging is on; other Python errors print their
# traceback and exit 1.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

# fails EXPECT ARGS...: nbdsh ARGS exits 1, prints nothing on stdout,
# and its stderr matches EXPECT.
fails ()
{
  local expect=$1 status=0
  shift
  $VG nbdsh "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null || status=$?
  cat "$tmp/err"
  test $status -eq 1
  test ! -s "$tmp/out"
  grep -q -- "$expect" "$tmp/err"
}
one_line ()
{
  test "$(grep -v '^libnbd: debug' "$tmp/err" | wc -l)" -eq 1
  ! grep -q Traceback "$tmp/err"
}

export LIBNBD_DEBUG=0
fails '^nbdsh: command line script failed: nbd_connect_uri: ' \
  -u "nbd+unix:///?socket=$tmp/nosuchsock" -c 'print("ran")'
one_line
fails '^nbdsh: command line script failed: nbd_connect_uri: ' -u 'nbd://['
one_line
fails '^nbdsh: command line script failed: nbd_connect_uri: ' -u 'http://x/'
one_line
fails '^nbdsh: command line script failed: nbd_is_read_only: ' \
  -c 'h.is_read_only()'
one_line
# A read past the end of the export, from inside a function.
fails '^nbdsh: command line script failed: nbd_pread: ' -u "$uri" \
  -c 'def f(): h.pread(512, 1 << 30)' -c 'f()'
one_line

# With debugging on (by the environment or by -v) the traceback shows
# where the error came from.
LIBNBD_DEBUG=1 fails '^nbd\.Error: nbd_is_read_only: ' -c 'h.is_read_only()'
grep -q Traceback "$tmp/err"
fails '^nbd\.Error: nbd_is_read_only: ' -v -c 'h.is_read_only()'
grep -q Traceback "$tmp/err"

fails '^ZeroDivisionError' -c 'x = 1 / 0'
grep -q Traceback "$tmp/err"
fails '^NameError' -n -c 'h.get_size()'
fails '^SyntaxError' -c 'if'
