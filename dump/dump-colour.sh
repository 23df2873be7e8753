#!/bin/bash -
# dump-colour.sh: --colour writes ANSI escapes and the Unicode splat,
# bars and dots; without it (output not a terminal) or with --no-colour
# the output is plain ASCII; on a terminal colour is the default.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit data --version

start_nbdkit d data '"Hi!" 0x80 @64 1'
esc=$'\033'

for opt in --colour --color --colours --colors "--no-colour --colour"; do
  # shellcheck disable=SC2086
  nbddump $opt "$uri" > "$tmp/c.out"
  # The offset in green, a non-zero byte in bright blue, a letter in
  # bright red, other printable characters in bright magenta.
  for code in "22;32m0000000000" "1;34m48 " "1;31mH" "1;35m!" "0m"; do
    if ! grep -qF "$esc[$code" "$tmp/c.out"; then
      echo "$0: FAIL: nbddump $opt: no ESC[$code"
      cat -v "$tmp/c.out"
      exit 1
    fi
  done
  grep -q '☆' "$tmp/c.out"
  grep -q '│' "$tmp/c.out"
  grep -q '·' "$tmp/c.out"
  # Each line ends by restoring the terminal's colours.
  test "$(tail -c 4 "$tmp/c.out")" = "$esc[0m"
done

cat > "$tmp/plain.exp" <<'EOX'
0000000000: 48 69 21 80 00 00 00 00  00 00 00 00 00 00 00 00 |Hi!.............|
0000000010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000000040: 01                                               |.               |
EOX
expect plain "$uri"
for opt in --no-colour --no-color --no-colours --no-colors \
           "--colour --no-colour"; do
  # shellcheck disable=SC2086
  expect plain $opt "$uri"
done

# On a terminal, colour is on unless turned off.
if script --version >/dev/null 2>&1; then
  script -qec "$builddir/nbddump '$uri'" /dev/null > "$tmp/tty.out"
  grep -qF "$esc[22;32m" "$tmp/tty.out"
  script -qec "$builddir/nbddump --no-colour '$uri'" /dev/null \
    > "$tmp/tty-plain.out"
  if grep -qF "$esc[" "$tmp/tty-plain.out"; then
    echo "$0: FAIL: --no-colour on a terminal wrote escapes"
    exit 1
  fi
else
  echo "$0: no script(1): the terminal default is not checked"
fi
echo "$0: OK"
