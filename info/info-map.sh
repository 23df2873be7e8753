#!/bin/bash -
# info-map.sh: --map lists the extents of base:allocation, adjacent
# extents of one type merged, in text and in JSON.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires python3 --version

# nbdkit's data plugin allocates 32 KiB pages: each byte written makes
# its page data, the rest is hole,zero.  Two neighbouring pages merge.
start_nbdkit data data "@0 1 @32768 1 @1048576 2 @4194304 3" size=8M
nbdinfo --map "$uri" > "$tmp/map"
cat > "$tmp/want" <<'EOT'
         0       65536    0  data
     65536      983040    3  hole,zero
   1048576       32768    0  data
   1081344     3112960    3  hole,zero
   4194304       32768    0  data
   4227072     4161536    3  hole,zero
EOT
diff -u "$tmp/want" "$tmp/map"
# --map=base:allocation is the default spelled out.
nbdinfo --map=base:allocation "$uri" | diff -u "$tmp/want" -

nbdinfo --map --json "$uri" > "$tmp/map.json"
json_check "$tmp/map.json" \
  'len(j) == 6' \
  'j[0] == {"offset": 0, "length": 65536, "type": 0,
            "description": "data"}' \
  'j[1] == {"offset": 65536, "length": 983040, "type": 3,
            "description": "hole,zero"}' \
  'j[5] == {"offset": 4227072, "length": 4161536, "type": 3,
            "description": "hole,zero"}' \
  'all(a["offset"] + a["length"] == b["offset"] for a, b in zip(j, j[1:]))'

# A fully allocated export is one extent; an empty one has none.
start_nbdkit full data "1" size=32768
[ "$(nbdinfo --map "$uri")" = "         0       32768    0  data" ]
start_nbdkit empty null
[ -z "$(nbdinfo --map "$uri")" ]
nbdinfo --map --json "$uri" > "$tmp/empty.json"
json_check "$tmp/empty.json" 'j == []'

# A server without structured replies cannot give a map.
start_nbdkit nosr --no-sr memory 1M
expect_status 1 nbdinfo --map "$uri"
echo "$0: OK"
