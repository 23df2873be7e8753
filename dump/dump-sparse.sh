#!/bin/bash -
# dump-sparse.sh: holes are found by block status and never read: a
# 1 TiB export with three runs of data is dumped in seconds reading only
# the data, and the same content dumps the same with block status
# turned off (every byte read) and at unaligned offsets.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit data --version
requires nbdkit --filter=log null --version
requires nbdkit --filter=noextents null --version

start_nbdkit big --filter=log \
  data '1 @1048576 "hi" @0xffffffffe0 "the end"' size=1T \
  logfile="$tmp/big.log"
cat > "$tmp/big.exp" <<'EOX'
0000000000: 01 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
0000000010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
0000100000: 68 69 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |hi..............|
0000100010: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
*
ffffffffe0: 74 68 65 20 65 6e 64 00  00 00 00 00 00 00 00 00 |the end.........|
fffffffff0: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 |................|
EOX
start=$(date +%s)
expect big "$uri"
elapsed=$(( $(date +%s) - start ))
read=$(bytes_read "$tmp/big.log")
echo "$0: 1 TiB dumped in ${elapsed}s, $read bytes read"
# The data plugin keeps 32 KiB pages: three of them hold the data.
if [ "$read" -gt $((3 * 32768)) ] || [ "$read" -eq 0 ]; then
  echo "$0: FAIL: $read bytes read, the holes were read"
  exit 1
fi
if [ "$elapsed" -gt 60 ]; then
  echo "$0: FAIL: took ${elapsed}s"
  exit 1
fi

# Without block status, everything is read, and the dump is the same.
start_nbdkit noext --filter=log --filter=noextents \
  data '1 @1048576 "hi" @3000000 "the end"' logfile="$tmp/noext.log"
nbddump "$uri" > "$tmp/noext.out"
read=$(bytes_read "$tmp/noext.log")
if [ "$read" -ne 3000007 ]; then
  echo "$0: FAIL: without block status $read bytes of 3000007 read"
  exit 1
fi
start_nbdkit withext data '1 @1048576 "hi" @3000000 "the end"'
nbddump "$uri" > "$tmp/withext.out"
cmp "$tmp/noext.out" "$tmp/withext.out"

# Extents that start and end inside lines: a random sparse disk, from
# unaligned offsets, with and without block status.
requires nbdkit sparse-random --version
args=(sparse-random size=12M seed=7 percent=20 runlength=3000)
start_nbdkit sr "${args[@]}"
sr=$uri
start_nbdkit srnoext --filter=noextents "${args[@]}"
srnoext=$uri
for opts in "" "-o 5" "-o 4097 -n 5000001" "-o 12582911"; do
  # shellcheck disable=SC2086
  nbddump $opts "$sr" > "$tmp/sr.out"
  # shellcheck disable=SC2086
  nbddump $opts "$srnoext" > "$tmp/srnoext.out"
  if ! cmp "$tmp/sr.out" "$tmp/srnoext.out"; then
    echo "$0: FAIL: nbddump $opts differs with block status"
    exit 1
  fi
done
lines=$(wc -l < "$tmp/sr.out")
test "$lines" -eq 1
echo "$0: OK"
