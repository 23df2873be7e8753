#!/bin/bash -
# dump-boundaries.sh: data read in several large requests dumps as one
# stream: 9 MiB of the pattern plugin, every line checked, and a string
# across the 4 MiB boundary between two reads.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit pattern --version
requires nbdkit data --version
requires nbdkit --filter=noextents null --version
requires awk 'BEGIN { exit 0 }'

# Each line of the pattern holds two big-endian 64 bit offsets.
size=$((9 * 1024 * 1024))
awk -v size=$size '
  function put(o,  i) {
    for (i = 7; i >= 0; i--)
      b[n++] = int (o / 2^(8*i)) % 256
  }
  BEGIN {
    for (o = 0; o < size; o += 16) {
      n = 0; put(o); put(o + 8)
      printf ("%010x: ", o)
      for (i = 0; i < 16; i++)
        printf (i == 7 ? "%02x  " : "%02x ", b[i])
      printf ("|")
      for (i = 0; i < 16; i++)
        printf ("%c", b[i] >= 32 && b[i] < 127 ? b[i] : 46)
      printf ("|\n")
    }
  }' > "$tmp/pattern.exp"
start_nbdkit pattern pattern size=$size
nbddump "$uri" > "$tmp/pattern.out"
if ! cmp "$tmp/pattern.exp" "$tmp/pattern.out"; then
  diff "$tmp/pattern.exp" "$tmp/pattern.out" | head
  exit 1
fi

# Without block status, reads are 4 MiB: this string spans two.
start_nbdkit span --filter=noextents \
  data '@4194300 "spanning two reads" @4194400 0'
cat > "$tmp/span.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
00003ffff0: 00 00 00 00 00 00 00 00  00 00 00 00 73 70 61 6e |............span|
0000400000: 6e 69 6e 67 20 74 77 6f  20 72 65 61 64 73 00 00 |ning two reads..|
0000400010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000400060: 00                                               |.               |
EOX
expect span "$uri"
echo "$0: OK"
