#!/usr/bin/env bash
# test-vs-1.24.sh: libnbd 1.24's own nbdsh (nbdsh.py and the nbd.py it
# imports, from Debian sid's python3-libnbd) run on OUR C module and
# library, beside our nbdsh, on the same server:
#  - every public method of nbd.NBD has the same signature (so calls
#    with keywords work alike), every constant the same value, and
#    nothing public of 1.24's nbd, nbd.Buffer or nbd.Error is missing
#    from ours;
#  - each nbdsh command line below gives the same exit status, the same
#    standard output and the same last line of standard error.
# 1.24's C module is built for sid's Python, so it is not what runs:
# the libnbd underneath is ours on both sides, and what is compared is
# the Python half.  The banner's and --help's wording and the frames of
# a traceback are ours (README.md, "Where it differs").  Skipped where
# the unpacked tree (scripts/peer-libnbd-1.24.sh) is missing.
source "${srcdir:-.}/sh-functions.sh"
set -e

D=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
sid_py=$D/R/usr/lib/python3/dist-packages
if [ ! -f "$sid_py/nbdsh.py" ] || [ ! -f "$sid_py/nbd.py" ]; then
  echo "$0: SKIP: no libnbd 1.24 nbdsh in $sid_py" \
       "(scripts/peer-libnbd-1.24.sh unpacks it)"
  exit 77
fi
requires nbdkit memory --version

# 1.24's Python files beside our C module, alone on the path.
mod=$(python_under_test -c 'import libnbdmod; print(libnbdmod.__file__)')
mkdir "$tmp/sid"
cp "$sid_py/nbdsh.py" "$sid_py/nbd.py" "$tmp/sid/"
ln -s "$mod" "$tmp/sid/"
theirs_python () { PYTHONPATH="$tmp/sid" python_under_test "$@"; }
theirs () { theirs_python -c 'import nbdsh; nbdsh.shell()' "$@"; }
ours () { nbdsh "$@"; }
where=$(theirs -c 'print(nbd.__file__)')
test "$where" = "$tmp/sid/nbd.py"

# The Python surface, printed one fact a line.
cat > "$tmp/surface.py" <<'EOF'
import inspect, nbd
for name in sorted(dir(nbd.NBD)):
    if not name.startswith("_"):
        print("method", name, inspect.signature(getattr(nbd.NBD, name)))
for name in sorted(dir(nbd)):
    if name.isupper():
        print("constant", name, repr(getattr(nbd, name)))
    elif not name.startswith("_"):
        print("name", name)
for cls in (nbd.Buffer, nbd.Error):
    for name in sorted(dir(cls)):
        if not name.startswith("_"):
            print("member", cls.__name__, name)
EOF
theirs_python "$tmp/surface.py" > "$tmp/surface.theirs"
python_under_test "$tmp/surface.py" > "$tmp/surface.ours"
test "$(grep -c '^method' "$tmp/surface.theirs")" -gt 150
missing=$(comm -23 <(sort "$tmp/surface.theirs") <(sort "$tmp/surface.ours"))
if [ -n "$missing" ]; then
  echo "$0: 1.24's Python surface has, ours lacks or differs:"
  echo "$missing"
  exit 1
fi

start_nbdkit "$tmp/sock" memory size=1M

# same STDIN ARGS...: both nbdshes, STDIN fed to them.
cases=0
same ()
{
  local input=$1 who s
  shift
  for who in theirs ours; do
    s=0
    printf '%b' "$input" | $who "$@" > "$tmp/$who.out" 2> "$tmp/$who.err" ||
      s=$?
    echo "$s" > "$tmp/$who.status"
    grep -v '^libnbd: debug' "$tmp/$who.err" | tail -1 > "$tmp/$who.last"
  done
  for f in status out last; do
    if ! cmp -s "$tmp/theirs.$f" "$tmp/ours.$f"; then
      echo "$0: nbdsh $*: $f differs (1.24's first):"
      diff "$tmp/theirs.$f" "$tmp/ours.$f" || :
      exit 1
    fi
  done
  cases=$((cases + 1))
}

export LIBNBD_DEBUG=0
same '' -V
same '' --short-options
same '' --long-options
same '' -n -u "$uri"
same '' -n --opt-mode
same '' -u "$uri" -c 'print(h.get_size(), h.is_read_only())'
same '' --connect "$uri" -c 'print(h.get_size())'
same '' -c 'print("before")' -u "$uri" -c 'print(h.get_size())'
same '' --base-allocation -u "$uri" \
  -c 'print(h.can_meta_context(nbd.CONTEXT_BASE_ALLOCATION))' \
  -c 'h.block_status(65536, 0, lambda c, o, e, err: print(c, o, e))'
same '' --opt-mode -u "$uri" -c 'print(h.aio_is_negotiating())' \
  -c 'h.opt_go()' -c 'print(h.get_size())'
same '' -u "nbd+unix:///?socket=$tmp/nosuchsock" -c 'print("ran")'
same '' -u 'nbd://['
same '' -c 'h.is_read_only()'
same '' -u "$uri" -c 'def f(): h.pread(512, 1 << 30)' -c 'f()'
same '' -c 'raise ValueError("not nbd")'
same '' -c 'import sys; sys.exit(3)'
same '' -c 'exit(4)'
same 'print(h.get_size())\n' -u "$uri" -c -
same 'x = 6\n' -c - -c 'print(x * 7)'
same 'print(1 + 1)\nh.pread(512, 1 << 30)\nx = 5\nprint(x)\n' -u "$uri"
same 'print("h" in globals())\nexit(2)\nprint("after")\n' -n
same '' -u "$uri" -c '
h.pwrite(b"hello, world", 4096)
b = nbd.Buffer.from_bytearray(bytearray(b"xyz"))
print(h.pread(12, 4096), b[1], b[0:2], b[-1], len(b), b.is_zero())
try:
    h.pread(512, 1 << 40)
except nbd.Error as e:
    print(e.string, e.errno, e.errnum)
h.shutdown()
try:
    h.get_size()
except nbd.Error as e:
    print(e.string)
h.close()
try:
    h.get_size()
except nbd.ClosedHandle as e:
    print("closed", e)'
LIBNBD_DEBUG=1 same '' -c 'h.is_read_only()'
echo "$0: the Python surface and $cases command lines agree with 1.24"
