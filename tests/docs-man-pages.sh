#!/usr/bin/env bash
# docs-man-pages.sh: one man page per exported call, each rendering
# without groff warnings, as the pages of nbddiscard and nbdzero do.

. "${srcdir:-.}/functions.sh"
set -e

requires groff --version

builddir="${builddir:-.}"
header="$builddir/../include/libnbd.h"
docs="$builddir/../docs"

if [ ! -f "$header" ]; then
  echo "$0: FAIL: $header is missing"
  exit 1
fi
if [ ! -f "$docs/libnbd.3" ]; then
  echo "$0: FAIL: $docs/libnbd.3 is missing"
  exit 1
fi

tmp="$(mktemp -d /tmp/docs-man-pages-XXXXXX)"
cleanup_fn rm -rf "$tmp"

# Every "extern ... nbd_xxx (" declared in the header, and every page.
sed -n 's/^extern .*[ *]\(nbd_[a-z0-9_]*\) (.*/\1/p' "$header" |
  sort -u > "$tmp/calls"
for f in "$docs"/nbd_*.3; do
  [ -f "$f" ] && basename "$f" .3
done | sort > "$tmp/pages"

n="$(wc -l < "$tmp/calls")"
if [ "$n" -lt 100 ]; then
  echo "$0: FAIL: only $n calls found in $header"
  exit 1
fi
if ! diff -u "$tmp/calls" "$tmp/pages" > "$tmp/diff"; then
  echo "$0: FAIL: calls (-) and man pages (+) differ:"
  grep '^[-+]nbd_' "$tmp/diff"
  exit 1
fi

# The overviews, each binding's page among them, are made and listed
# in man-pages.mk, the list "make install" installs.
for p in libnbd libnbd-ocaml libnbd-python libnbd-rust; do
  if [ ! -s "$docs/$p.3" ]; then
    echo "$0: FAIL: $docs/$p.3 is missing"
    exit 1
  fi
  if ! tr -d ' \t\\' < "$docs/man-pages.mk" | grep -qxF "$p.3"; then
    echo "$0: FAIL: $p.3 is not in $docs/man-pages.mk: not installed"
    exit 1
  fi
done

# Each page, and the overviews (libnbd*.3: libnbd(3), libnbd-python(3),
# libnbd-rust(3)...), must render without a single warning.
status=0
for f in "$docs"/libnbd*.3 "$docs"/nbd_*.3; do
  if ! groff -man -ww -z "$f" > "$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
    echo "$0: FAIL: $f:"
    cat "$tmp/out"
    status=1
  fi
done
# So must the pages of the tools written beside the library.
for f in "$builddir"/../discard/nbddiscard.1 "$builddir"/../discard/nbdzero.1
do
  if [ ! -f "$f" ]; then
    echo "$0: FAIL: $f is missing"
    status=1
  elif ! groff -man -ww -z "$f" > "$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
    echo "$0: FAIL: $f:"
    cat "$tmp/out"
    status=1
  fi
done
[ $status -eq 0 ] && echo "$0: $n calls, $n pages, all clean"
exit $status
