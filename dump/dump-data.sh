#!/bin/bash -
# dump-data.sh: nbddump's output, byte for byte, for small exports of
# the nbdkit data plugin: short last lines, every kind of byte, runs of
# zero and of repeated lines squashed, the last line never squashed.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit data --version

# 37 bytes: the last line is short.
start_nbdkit d37 data '"0123456789abcdefghijklmnopqrstuvwxyz\n"'
cat > "$tmp/d37.exp" <<'EOX'
0000000000: 30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66 |0123456789abcdef|
0000000010: 67 68 69 6a 6b 6c 6d 6e  6f 70 71 72 73 74 75 76 |ghijklmnopqrstuv|
0000000020: 77 78 79 7a 0a                                   |wxyz.           |
EOX
expect d37 "$uri"

# Control characters, the ends of printable ASCII, bytes over 127.
start_nbdkit chars data '0x00 0x1f 0x20 0x21 0x7e 0x7f 0x80 0xff
                         0x41 0x7a 0x2e 0x7c 0x5c 0x22 0x27 0x60'
cat > "$tmp/chars.exp" <<'EOX'
0000000000: 00 1f 20 21 7e 7f 80 ff  41 7a 2e 7c 5c 22 27 60 |.. !~...Az.|\"'`|
EOX
expect chars "$uri"

# Repeated lines of data and of zeroes each become one "*"; the short
# last line of the export is printed.
start_nbdkit runs data '@16 "A"*64 @256 0'
cat > "$tmp/runs.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
0000000010: 41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41 |AAAAAAAAAAAAAAAA|
*
0000000050: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000000100: 00                                               |.               |
EOX
expect runs "$uri"

# All zeroes, a multiple of 16: the full last line is printed too.
start_nbdkit zero4k data '' size=4096
cat > "$tmp/zero4k.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000000ff0: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
EOX
expect zero4k "$uri"

# Two equal lines at the end: the second is the export's last line.
start_nbdkit twolines data '"0123456789abcdef"*2'
cat > "$tmp/twolines.exp" <<'EOX'
0000000000: 30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66 |0123456789abcdef|
0000000010: 30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66 |0123456789abcdef|
EOX
expect twolines "$uri"

# Far apart, in an export whose size is not a multiple of 16.
start_nbdkit far data '@32768 1 @65535 "hello, world!" @100000 "end"'
cat > "$tmp/far.exp" <<'EOX'
0000000000: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000008000: 01 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
0000008010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
000000fff0: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 68 |...............h|
0000010000: 65 6c 6c 6f 2c 20 77 6f  72 6c 64 21 00 00 00 00 |ello, world!....|
0000010010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
00000186a0: 65 6e 64                                         |end             |
EOX
expect far "$uri"

# An empty export prints nothing.
start_nbdkit empty data '' size=0
: > "$tmp/empty.exp"
expect empty "$uri"

# A server run by socket activation, between [ ].
cat > "$tmp/cmd.exp" <<'EOX'
0000000000: 01 02 03                                         |...             |
EOX
expect cmd -- [ nbdkit data '1 2 3' ]
echo "$0: OK"
