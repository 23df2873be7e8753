#!/bin/bash -
# dump-length.sh: -n/--length/--limit and -o/--offset/--skip choose the
# range dumped, with size suffixes; the offsets printed are those of the
# export; a range past the end is cut or refused.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit pattern --version
requires nbdkit data --version

# The pattern plugin: each 8 bytes hold their own offset, big endian.
start_nbdkit pattern pattern size=1M
cat > "$tmp/n40.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 08 |................|
0000000010: 00 00 00 00 00 00 00 10  00 00 00 00 00 00 00 18 |................|
0000000020: 00 00 00 00 00 00 00 20                          |.......         |
EOX
expect n40 -n 40 "$uri"
expect n40 --length=40 "$uri"
expect n40 --limit 40 "$uri"

cat > "$tmp/o4090.exp" <<'EOX'
0000000ffa: 00 00 00 00 0f f8 00 00  00 00 00 00 10 00 00 00 |................|
000000100a: 00 00 00 00                                      |....            |
EOX
expect o4090 -o 4090 -n 20 "$uri"
expect o4090 --offset=4090 --length=20 "$uri"
expect o4090 --skip 4090 --limit=20 "$uri"

# Suffixes: 1k is 1024 bytes, 64 lines.
nbddump -n 1k "$uri" > "$tmp/1k.out"
test "$(wc -l < "$tmp/1k.out")" -eq 64
tail -n 1 "$tmp/1k.out" | grep -q '^00000003f0: 00 00 00 00 00 00 03 f0 '

# A length past the end stops at the end; so does a range ending
# there.
cat > "$tmp/tail.exp" <<'EOX'
00000ffffa: 00 00 00 0f ff f8                                |......          |
EOX
expect tail -o 1048570 -n 1G "$uri"
expect tail --skip=1048570 "$uri"

# Nothing to dump: length 0, or an offset at the very end.
: > "$tmp/none.exp"
expect none -n 0 "$uri"
expect none -o 1M "$uri"

# Past the end, or not a size: errors.
for bad in "-o 1048577" "-o 2M" "-n -1" "-n 12q" "-o x" "--length="; do
  # shellcheck disable=SC2086
  if nbddump $bad "$uri" > "$tmp/bad.out" 2> "$tmp/bad.err"; then
    echo "$0: FAIL: nbddump $bad succeeded"
    exit 1
  fi
  cat "$tmp/bad.err"
  grep -q '^nbddump: ' "$tmp/bad.err"
  test ! -s "$tmp/bad.out"
done

# Zeroes cut short: the run is squashed, the short last line printed.
start_nbdkit zero data '' size=1M
cat > "$tmp/z36.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000000020: 00 00 00 00                                      |....            |
EOX
expect z36 -n 36 "$uri"
cat > "$tmp/z48.exp" <<'EOX'
0000000010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
EOX
expect z48 -o 16 -n 48 "$uri"
echo "$0: OK"
