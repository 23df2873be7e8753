#!/bin/bash -
# test-build-as-documented.sh: a new user's program, built and run
# exactly as libnbd-ocaml(3) says, against this build tree (under
# ./run) and against a copy installed by make install, even with
# another package nbd on the search path (a system one, such as
# Debian's 1.14).  The program and the commands are taken from the
# man page itself.
set -euo pipefail
top=$(cd "$abs_builddir/.." && pwd)
man="$top/docs/libnbd-ocaml.3"
[ -f "$man" ] || man="$srcdir/../docs/libnbd-ocaml.3"

# A tree built with a sanitizer (.ci/run's second build) has stubs
# that need its runtime, which a program built as the page says does
# not link: the plain build runs this test.  (grep without -q: quitting
# early would kill nm with SIGPIPE, a failure under pipefail.)
if nm "$abs_builddir/libmlnbd.a" 2>/dev/null | grep '__[at]san_' >/dev/null; then
  echo "$0: SKIP: this tree is built with a sanitizer; programs built" \
       "as the man page says link without its runtime"
  exit 77
fi

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# The verbatim blocks of the page, unescaped, one file each.
awk -v d="$d" '
  /^\.nf$/ { n++; inblock = 1; next }
  /^\.fi$/ { inblock = 0; next }
  inblock {
    gsub(/\\&/, ""); gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047")
    gsub(/\\e/, "\\")
    print > (d "/block" n)
  }' "$man"
block () {
  local f
  for f in "$d"/block*; do
    if head -1 "$f" | grep -q -e "$1"; then cat "$f"; return; fi
  done
  echo "$0: no block of $man starts with $1"; exit 1
}
block '^let () =' > "$d/prog.ml"
block '^ocamlfind ' > "$d/installed.sh"
block '^\.\./libnbd/run ocamlfind' > "$d/tree.sh"
cat "$d/installed.sh" "$d/tree.sh"

# What ./run (this test's log compiler) set must not help: start from
# a plain environment, with a decoy nbd ahead in OCAMLPATH, standing
# for a system package (its library does not exist).
unset OCAMLPATH CAML_LD_LIBRARY_PATH LD_LIBRARY_PATH
mkdir -p "$d/decoy/nbd"
printf '%s\n' 'version="0"' 'requires="unix"' \
  'archive(native)="decoy.cmxa"' 'archive(byte)="decoy.cma"' \
  > "$d/decoy/nbd/META"
export OCAMLPATH="$d/decoy"

# Runs the commands of a block in directory $1, checks what the
# program printed, and which libnbd.so.0 it maps ($2).
run_block () {
  local dir=$1 lib=$2 script=$3
  mkdir -p "$dir"
  cp "$d/prog.ml" "$dir/"
  (cd "$dir" && bash -e "$script") > "$dir/out"
  cat "$dir/out"
  [ "$(cat "$dir/out")" = "1048576 bytes" ] ||
    { echo "$0: $script: the program printed the above"; exit 1; }
  (cd "$dir" && eval "$(sed -n 's|\./prog$|ldd ./prog|p' "$script")") |
    grep -F "libnbd.so.0 => $lib/libnbd.so.0" ||
    { echo "$0: $script: ./prog does not map $lib/libnbd.so.0"; exit 1; }
}

# The build tree: the man page's ../libnbd/run is this tree's.
sed "s|^\.\./libnbd/run|$top/run|" "$d/tree.sh" > "$d/tree-here.sh"
run_block "$d/tree" "$top/lib/.libs" "$d/tree-here.sh"
# And byte code, the same way (not under valgrind, which ./run would
# put in front of ocamlrun: ocamlrun has leaks of its own).
sed 's/ocamlopt/ocamlc/' "$d/tree-here.sh" > "$d/tree-byte.sh"
(cd "$d/tree" && rm -f prog ./*.cm* &&
   LIBNBD_VALGRIND= bash -e "$d/tree-byte.sh") |
  grep -qx '1048576 bytes' || { echo "$0: byte code in the tree"; exit 1; }

# An installed copy: the library and the package into a prefix of
# this test's, the package's directory first in OCAMLPATH, the
# library's in LD_LIBRARY_PATH, as the page says.
inst="$d/inst"
env -u MAKEFLAGS -u MFLAGS make -s -C "$top/lib" install \
  libdir="$inst/lib" > "$d/install.log" 2>&1 &&
env -u MAKEFLAGS -u MFLAGS make -s -C "$top/ocaml" install \
  libdir="$inst/lib" OCAML_DESTDIR="$inst/site-lib" >> "$d/install.log" 2>&1 ||
  { cat "$d/install.log"; echo "$0: make install failed"; exit 1; }
export OCAMLPATH="$inst/site-lib:$OCAMLPATH"
export LD_LIBRARY_PATH="$inst/lib"
run_block "$d/installed" "$inst/lib" "$d/installed.sh"
echo "$0: built and ran as libnbd-ocaml(3) says, in the tree and installed"
