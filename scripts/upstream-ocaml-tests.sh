#!/bin/bash -
# upstream-ocaml-tests.sh: compile libnbd's own OCaml tests
# (ocaml/tests/test_*.ml) against this build's NBD module and run
# them, as a program written against libnbd 1.22's bindings would be
# built and run.  The tests, their config module and the nbdkit
# scripts they use (tests/*.sh) are taken from a libnbd git tree at run
# time into a temporary directory; they are never copied into our
# tree.  Native code only.
#
# Usage: scripts/upstream-ocaml-tests.sh [-k] [TEST...]
#   TEST   a test to run, as test_NNN_name (default: all of them)
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
keep=0
if [ "${1:-}" = "-k" ]; then
  keep=1
  shift
fi

if [ ! -f "$builddir/ocaml/mlnbd.cmxa" ]; then
  echo "$0: build first (scripts/build.sh): no $builddir/ocaml/mlnbd.cmxa" >&2
  exit 1
fi
if ! git -C "$git_dir" rev-parse --verify -q "$rev^{commit}" >/dev/null
then
  echo "$0: no libnbd revision $rev in $git_dir (set LIBNBD_GIT)" >&2
  exit 1
fi

tmp=$(mktemp -d)
if [ "$keep" = 0 ]; then
  trap 'rm -rf "$tmp"' EXIT
else
  echo "logs in $tmp"
fi
mkdir -p "$tmp/ocaml/tests" "$tmp/tests"

# Their tests and the config module, nbdkit substituted as configure
# would.
for f in $(git -C "$git_dir" ls-tree --name-only "$rev" ocaml/tests/); do
  case "$f" in
    *.ml|*.mli) git -C "$git_dir" show "$rev:$f" > "$tmp/$f" ;;
    *.ml.in)
      git -C "$git_dir" show "$rev:$f" |
        sed "s|@NBDKIT@|nbdkit|g" > "$tmp/${f%.in}" ;;
  esac
done
# The nbdkit sh-plugin scripts some tests name as $srcdir/../../tests.
for f in $(git -C "$git_dir" ls-tree --name-only "$rev" tests/); do
  case "$f" in
    *.sh) git -C "$git_dir" show "$rev:$f" > "$tmp/$f"
          chmod +x "$tmp/$f" ;;
  esac
done

cd "$tmp/ocaml/tests"
if [ $# -gt 0 ]; then
  tests="$*"
else
  tests=$(ls test_*.ml | sed 's/\.ml$//')
fi

ocamlfind ocamlopt -package unix -I "$builddir/ocaml" \
  -c ocaml_test_config.mli ocaml_test_config.ml

pass=0 fail=0 skip=0
for t in $tests; do
  log="$tmp/$t.log"
  if ! ocamlfind ocamlopt -package unix -I "$builddir/ocaml" -linkpkg \
         "$builddir/ocaml/mlnbd.cmxa" ocaml_test_config.cmx "$t.ml" \
         -ccopt "-L$builddir/lib/.libs" -o "$t.opt" > "$log" 2>&1; then
    echo "FAIL: $t (does not compile)"
    sed 's/^/    /' "$log" | head -20
    fail=$((fail + 1))
    continue
  fi
  set +e
  srcdir="$tmp/ocaml/tests" LIBNBD_DEBUG=1 OCAMLRUNPARAM=b \
    timeout -k 10 300 "$builddir/run" "./$t.opt" >> "$log" 2>&1
  r=$?
  set -e
  case $r in
    0) echo "PASS: $t"; pass=$((pass + 1)) ;;
    77) echo "SKIP: $t"; skip=$((skip + 1)) ;;
    *) echo "FAIL: $t (exit $r)"
       grep -v '^libnbd: debug' "$log" | tail -n 10 | sed 's/^/    /'
       fail=$((fail + 1)) ;;
  esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
