#!/bin/bash -
# api-coverage.sh: every exported call is used by at least one test.
# Prints the map from each call to the tests that use it (the table
# tests/README.md points to), then fails naming any call no test uses.
set -euo pipefail

srcdir="${srcdir:-.}"
top="$srcdir/.."
syms="${builddir:-.}/../lib/libnbd.syms"

# Test sources: C tests and scripts here, and those of the other test
# directories (nbdcopy, nbdinfo, Go) where they exist.
sources=()
for f in "$srcdir"/*.c "$srcdir"/*.h "$srcdir"/*.sh \
         "$top"/copy/*.sh "$top"/info/*.sh "$top"/golang/*_test.go \
         "$top"/fuzz/*.c; do
  [ -f "$f" ] && sources+=("$f")
done

# Rust tests name a call as a method, without the nbd_ prefix (so an
# AsyncHandle's async pread counts for nbd_pread).  OCaml: not yet.
rust_sources=()
for f in "$top"/rust/tests/*.rs "$top"/rust/tests/*/*.rs; do
  [ -f "$f" ] && rust_sources+=("$f")
done

# Go names the calls without the nbd_ prefix, in CamelCase.
camel ()
{
  sed -e 's/^nbd_//' -e 's/_\([a-z0-9]\)/\U\1/g' -e 's/^\([a-z]\)/\U\1/' \
    <<< "$1"
}

calls=$(grep -o '\bnbd_[a-z0-9_]*' "$syms" | LC_ALL=C sort -u)
missing=()
for c in $calls; do
  users=$(grep -lw -e "$c" "${sources[@]}" 2>/dev/null |
            xargs -r -n1 basename | sort -u | tr '\n' ' ' || :)
  go=$(camel "$c")
  gousers=$(grep -lw -e "\.$go" "${sources[@]}" 2>/dev/null |
              grep '_test\.go$' | xargs -r -n1 basename | tr '\n' ' ' || :)
  rustusers=""
  if [ ${#rust_sources[@]} -gt 0 ]; then
    rustusers=$(grep -l -E "\.${c#nbd_}\b" "${rust_sources[@]}" 2>/dev/null |
                  sed 's|.*/rust/tests/|rust/tests/|' | tr '\n' ' ' || :)
  fi
  users="$users$gousers$rustusers"
  printf '%-45s %s\n' "$c" "${users:-(none)}"
  [ -n "$users" ] || missing+=("$c")
done

n=$(wc -w <<< "$calls")
if [ "$n" -lt 160 ]; then
  echo "$0: only $n calls in $syms, expected 160"
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "$0: ${#missing[@]} of $n calls are used by no test: ${missing[*]}"
  exit 1
fi
echo "$0: all $n calls are used by at least one test"
