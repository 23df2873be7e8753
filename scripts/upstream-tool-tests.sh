#!/bin/bash -
# upstream-tool-tests.sh: run libnbd's own shell tests of its tools
# (the TESTS of copy/, info/, sh/, dump/ and fuse/ in its Makefile.am
# files) against this build, as a user would: each test runs through
# our ./run, which puts our tools first on $PATH and our library first
# on the library path, with the environment upstream's Makefile.am gives
# its tests.  The tests are taken from a libnbd git tree at run time,
# into a temporary directory, and are never copied into our tree.
#
# Usage: scripts/upstream-tool-tests.sh [-k] [TEST...]
#   TEST   a test to run, as DIR/NAME.sh (default: all of them)
#   -k     keep the temporary directory with each test's log
# Environment:
#   LIBNBD_GIT  a libnbd git repository (default: the mirror of 1.22)
#   LIBNBD_REV  the revision to take the tests from (default: HEAD)
#   BUILDDIR    our build tree (default: the top of this tree)
#
# Prints PASS, FAIL or SKIP for each test and a total; exits 1 if any
# test failed.  This is a local check, not part of make check.
set -euo pipefail

top="$(cd "$(dirname "$0")/.." && pwd)"
builddir="${BUILDDIR:-$top}"
git_dir="${LIBNBD_GIT:-/work/.mirror/deepin-community+libnbd/repo}"
rev="${LIBNBD_REV:-HEAD}"
dirs="copy info sh dump fuse"
keep=0
if [ "${1:-}" = "-k" ]; then
  keep=1
  shift
fi

if [ ! -x "$builddir/run" ] || [ ! -x "$builddir/copy/nbdcopy" ]; then
  echo "$0: build first (scripts/build.sh): no $builddir/run" >&2
  exit 1
fi
if ! git -C "$git_dir" rev-parse --verify -q "$rev^{commit}" >/dev/null
then
  echo "$0: no libnbd revision $rev in $git_dir (set LIBNBD_GIT)" >&2
  exit 1
fi

tmp="$(mktemp -d /tmp/upstream-tool-tests.XXXXXX)"
if [ "$keep" = 0 ]; then
  trap 'rm -rf "$tmp"' EXIT
fi

# The tests, the tests/ directory they source functions.sh from, and
# examples/ (a directory one test lists as exports).
git -C "$git_dir" archive "$rev" $dirs tests examples | tar -x -C "$tmp"

# tests/functions.sh is made by configure in upstream's tree: fill in
# the programs it names with the ones on this machine.
version="$(sed -n 's/^PACKAGE_VERSION = //p' "$builddir/Makefile")"
sed -e "s|@abs_top_srcdir@|$tmp|" \
    -e 's|@NBDKIT@|nbdkit|' -e 's|@PYTHON@|python3|' \
    -e 's|@QEMU_NBD@|qemu-nbd|' \
    -e 's|@QEMU_STORAGE_DAEMON@|qemu-storage-daemon|' \
    -e 's|@CMP@|cmp|' -e 's|@CUT@|cut|' -e 's|@DD@|dd|' \
    -e 's|@REALPATH@|realpath|' -e 's|@SED@|sed|' -e 's|@STAT@|stat|' \
    -e 's|@TR@|tr|' -e 's|@TRUNCATE@|truncate|' \
    "$tmp/tests/functions.sh.in" > "$tmp/tests/functions.sh"
if grep -v "^#" "$tmp/tests/functions.sh" | grep -q "@[A-Za-z_]*@"; then
  echo "$0: tests/functions.sh.in names a program this script does not" \
       "know:" >&2
  grep '@[A-Za-z_]*@' "$tmp/tests/functions.sh" >&2
  exit 1
fi

# The certificates the nbds:// tests use, made as upstream's
# tests/Makefile.am makes them.
if command -v certtool >/dev/null; then
  (cd "$tmp/tests" &&
   SRCDIR=. CERTTOOL=certtool ./make-pki.sh pki-t >/dev/null 2>&1 &&
   mv pki-t pki && touch pki/stamp-pki) ||
    echo "$0: could not make tests/pki; the TLS tests will skip" >&2
fi

# The TESTS of DIR/Makefile.am, every conditional taken as true (this
# machine has nbdkit, qemu, FUSE, gnutls and Python): variables are
# expanded, continuation lines joined.
list_tests ()
{
  python3 - "$tmp/$1/Makefile.am" <<'EOF'
import re, sys
text = open (sys.argv[1]).read ().replace ("\\\n", " ")
vars = {}
for line in text.splitlines ():
    m = re.match (r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\+?=)(.*)$", line)
    if not m:
        continue
    name, op, value = m.groups ()
    vars[name] = (vars.get (name, "") + " " if op == "+=" else "") + value
def expand (s, depth=0):
    return re.sub (r"\$\((\w+)\)",
                   lambda m: expand (vars.get (m.group (1), ""), depth + 1),
                   s) if depth < 10 else s
for word in expand (vars.get ("TESTS", "")).split ():
    print (word)
EOF
}

# Upstream's TESTS_ENVIRONMENT (LIBNBD_DEBUG=1, NBDKIT_DEBUG=1 in sh/,
# EXPECTED_VERSION, PSKTOOL, QEMU_NBD; its MALLOC_CHECKS are set by our
# ./run), and automake's srcdir.
run_one ()
{
  local dir="$1" t="$2" rc=0
  (cd "$tmp/$dir" &&
   env srcdir=. LIBNBD_DEBUG=1 EXPECTED_VERSION="$version" \
       PSKTOOL=psktool QEMU_NBD=qemu-nbd \
       $([ "$dir" = sh ] && echo NBDKIT_DEBUG=1) \
       timeout -k 10 600 "$builddir/run" "./$t" \
       > "$tmp/$dir/${t%.sh}.log" 2>&1 </dev/null) || rc=$?
  return $rc
}

pass=0 fail=0 skip=0 failed=""
for dir in $dirs; do
  for t in $(list_tests "$dir"); do
    case "$t" in *.sh) ;; *) continue ;; esac
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$dir/$t"; then
      continue
    fi
    rc=0
    run_one "$dir" "$t" || rc=$?
    case "$rc" in
      0) result=PASS; pass=$((pass + 1)) ;;
      77) result=SKIP; skip=$((skip + 1)) ;;
      *) result=FAIL; fail=$((fail + 1)); failed+=" $dir/$t" ;;
    esac
    printf '%s: %s/%s\n' "$result" "$dir" "$t"
  done
done

echo "----"
echo "$pass pass, $fail fail, $skip skip of $((pass + fail + skip))"
for t in $failed; do
  if [ "$keep" = 1 ]; then
    echo "failed: $t (log: $tmp/${t%.sh}.log)"
  else
    echo "failed: $t (run with -k to keep its log)"
  fi
done
[ "$fail" = 0 ]
