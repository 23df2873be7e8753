#!/usr/bin/env bash
# test-man.sh: nbdfuse.1 renders without groff warnings and documents
# every option and mode nbdfuse accepts.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires groff --version
make_tmpdir

page="${builddir:-.}/nbdfuse.1"
LC_ALL=C.UTF-8 groff -man -ww -z "$page" 2> "$tmp/warnings"
if [ -s "$tmp/warnings" ]; then
  cat "$tmp/warnings"
  exit 1
fi

# Option names in the page are written \-\-name.
sed 's/\\-/-/g; s/\\f[BIR]//g' "$page" > "$tmp/text"
for o in $(nbdfuse --long-options) $(nbdfuse --short-options) \
         --command --socket-activation --fd --tcp --unix --vsock --uri; do
  if ! grep -q -- "$o\b" "$tmp/text"; then
    echo "$0: $o is not in nbdfuse.1"
    exit 1
  fi
done
