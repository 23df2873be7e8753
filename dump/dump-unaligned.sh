#!/bin/bash -
# dump-unaligned.sh: a server with a minimum block size of 4096 refuses
# requests that are not whole blocks: an --offset or --length inside a
# block reads the whole blocks and prints from the offset asked for,
# the same as from a server without a minimum.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit pattern --version
requires nbdkit --filter=blocksize-policy null --version
requires nbdkit --filter=log null --version

# compare PLAIN-URI MIN4K-URI: every range dumps the same from both.
compare ()
{
  local range
  for range in "-o 1000 -n 100" "-o 4090 -n 20" "-o 5000" \
               "-o 100 -n 9000" "-o 1048570" "-o 4096 -n 4097" "-n 1" \
               "-o 8190 -n 70000"; do
    # shellcheck disable=SC2086
    nbddump $range "$1" > "$tmp/plain.out"
    # shellcheck disable=SC2086
    if ! nbddump $range "$2" > "$tmp/min4k.out" 2> "$tmp/min4k.err"
    then
      cat "$tmp/min4k.err"
      echo "$0: FAIL: nbddump $range failed with a 4096 byte minimum"
      exit 1
    fi
    if ! cmp "$tmp/plain.out" "$tmp/min4k.out"; then
      echo "$0: FAIL: nbddump $range: without a minimum, then with:"
      cat "$tmp/plain.out"
      echo ---
      cat "$tmp/min4k.out"
      exit 1
    fi
  done
}

filters="--filter=log --filter=blocksize-policy"
policy="blocksize-minimum=4096 blocksize-error-policy=error"
# Data everywhere (pattern has no extents), then data among holes, so
# that block status is asked for from an unaligned offset too.
start_nbdkit plain pattern size=1M
plain=$uri
# shellcheck disable=SC2086
start_nbdkit min4k $filters pattern size=1M $policy \
  logfile="$tmp/min4k.log"
compare "$plain" "$uri"
sparse='@8190 1 2 3 4 5 @65536 "hello" @1048570 "x"'
start_nbdkit sparse-plain data "$sparse" size=1M
plain=$uri
# shellcheck disable=SC2086
start_nbdkit sparse-min4k $filters data "$sparse" size=1M $policy \
  logfile="$tmp/sparse-min4k.log"
compare "$plain" "$uri"

# Every read and every block status request was whole blocks.
grep -q ' Extents id=' "$tmp/sparse-min4k.log"
sed -n 's/.* \(Read\|Extents\) id=.* offset=\(0x[0-9a-f]*\) count=\(0x[0-9a-f]*\) .*/\2 \3/p' \
    "$tmp/min4k.log" "$tmp/sparse-min4k.log" > "$tmp/requests"
test -s "$tmp/requests"
while read -r offset count; do
  if [ $((offset % 4096)) != 0 ] || [ $((count % 4096)) != 0 ]; then
    echo "$0: FAIL: unaligned request: offset=$offset count=$count"
    exit 1
  fi
done < "$tmp/requests"
echo "$0: OK"
