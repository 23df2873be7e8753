#!/bin/bash -
# dump-man.sh: nbddump.1 renders without groff warnings and documents
# every option nbddump accepts.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires groff --version

page="$builddir/nbddump.1"
LC_ALL=C.UTF-8 groff -man -ww -z -t "$page" 2> "$tmp/warnings"
if [ -s "$tmp/warnings" ]; then
  cat "$tmp/warnings"
  exit 1
fi

# Option names in the page are written \-\-name.
sed 's/\\-/-/g; s/\\f[BIR]//g' "$page" > "$tmp/text"
for o in $(nbddump --long-options) $(nbddump --short-options); do
  if ! grep -q -- "$o\b" "$tmp/text"; then
    echo "$0: FAIL: $o is not in nbddump.1"
    exit 1
  fi
done
echo "$0: OK"
