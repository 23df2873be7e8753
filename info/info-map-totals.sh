#!/bin/bash -
# info-map-totals.sh: --map --totals sums each type of extent, with its
# share of the export, in text and in JSON.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires python3 --version

start_nbdkit data data "@0 1 @1048576 2 @4194304 3" size=8M
nbdinfo --map --totals "$uri" > "$tmp/totals"
cat > "$tmp/want" <<'EOT'
     98304   1.2%   0 data
   8290304  98.8%   3 hole,zero
EOT
diff -u "$tmp/want" "$tmp/totals"
nbdinfo --map --total "$uri" | diff -u "$tmp/want" -

nbdinfo --map --totals --json "$uri" > "$tmp/totals.json"
json_check "$tmp/totals.json" \
  '[t["size"] for t in j] == [98304, 8290304]' \
  '[t["type"] for t in j] == [0, 3]' \
  '[t["description"] for t in j] == ["data", "hole,zero"]' \
  'abs(j[0]["percent"] - 1.171875) < 1e-5' \
  'sum(t["size"] for t in j) == 8 << 20'

# Half and half.
start_nbdkit half data "( 1 )*1048576" size=2M
nbdinfo --map --totals "$uri" > "$tmp/half"
cat > "$tmp/want" <<'EOT'
   1048576  50.0%   0 data
   1048576  50.0%   3 hole,zero
EOT
diff -u "$tmp/want" "$tmp/half"

# An empty export has nothing to total.
start_nbdkit empty null
[ -z "$(nbdinfo --map --totals "$uri")" ]
[ "$(nbdinfo --map --totals --json "$uri")" = "[]" ]
echo "$0: OK"
