#!/bin/bash -
# scripts/mutual-calls.sh: list the pairs of source files in one
# directory where each calls a function the other defines: the two-way
# dependencies issue 43 removes.  Functions only: a global variable one
# file owns and others read is not a call back.  Read from the object
# files of a built tree with nm, so only external symbols count (a
# static function is the file's own business).
# Usage: scripts/mutual-calls.sh [BUILDDIR] [DIR...]
#   BUILDDIR defaults to the source tree; DIRs to copy fuse common lib.
# Prints one line "DIR: A <-> B" per pair, then "DIR: N pairs".
set -euo pipefail
builddir="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
shift || true
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(copy fuse common lib)

# The objects of DIR, one per source file: libtool's PIC objects for
# the library, the program's objects elsewhere.
objects ()
{
  local d="$builddir/$1"
  if [ -d "$d/.libs" ] && ls "$d"/.libs/*.o >/dev/null 2>&1; then
    ls "$d"/.libs/*.o
  else
    find "$d" -name '*.o' ! -path '*/.libs/*' | sort
  fi
}

# An object's name as its source file: nbdcopy-copy-multi.o and
# libnbd_la-poll.o both become the file's own stem.
stem ()
{
  basename "$1" .o | sed 's/^[a-z_]*-//'
}

for dir in "${dirs[@]}"; do
  tmp=$(mktemp -d)
  mapfile -t objs < <(objects "$dir")
  for o in "${objs[@]}"; do
    s=$(stem "$o")
    nm -g --defined-only "$o" | awk '$2 == "T" {print $3}' | sort -u >"$tmp/$s.def"
    nm -u "$o" | awk '{print $2}' | sort -u >"$tmp/$s.use"
  done
  n=0
  stems=($(for o in "${objs[@]}"; do stem "$o"; done | sort -u))
  for ((i = 0; i < ${#stems[@]}; i++)); do
    for ((j = i + 1; j < ${#stems[@]}; j++)); do
      a=${stems[i]} b=${stems[j]}
      if [ -n "$(comm -12 "$tmp/$a.use" "$tmp/$b.def")" ] &&
         [ -n "$(comm -12 "$tmp/$b.use" "$tmp/$a.def")" ]; then
        echo "$dir: $a <-> $b"
        n=$((n + 1))
      fi
    done
  done
  echo "$dir: $n pairs"
  rm -rf "$tmp"
done
