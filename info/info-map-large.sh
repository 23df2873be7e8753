#!/bin/bash -
# info-map-large.sh: --map over a sparse export of 1 TiB and more, past
# the 4 GiB a single block status request can cover.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

# Data in the first and the last page, and 2^40 - 64K of hole between.
start_nbdkit tib data "@0 1 @1099511595008 1" size=1T
nbdinfo --map "$uri" > "$tmp/map"
cat > "$tmp/want" <<'EOT'
         0       32768    0  data
     32768  1099511562240    3  hole,zero
1099511595008       32768    0  data
EOT
diff -u "$tmp/want" "$tmp/map"
nbdinfo --map --totals "$uri" > "$tmp/totals"
cat > "$tmp/want" <<'EOT'
     65536   0.0%   0 data
1099511562240 100.0%   3 hole,zero
EOT
diff -u "$tmp/want" "$tmp/totals"

# An empty memory disk of 1 TiB + 512 bytes: one extent, whose length
# is not a multiple of the 4 GiB request size.  The server's minimum
# block size (512 here) sets the alignment of the requests, and nbdkit
# answers each 4 GiB - 512 request with an extent of 4 GiB - 1: only
# the part asked for counts, or the next request would be unaligned
# (Debian's nbdinfo 1.14 fails here with "request is unaligned").
start_nbdkit mem --filter=blocksize-policy memory 1099511628288 \
  blocksize-minimum=512 blocksize-preferred=4096 blocksize-maximum=32M
[ "$(nbdinfo --map "$uri")" = "         0  1099511628288    3  hole,zero" ]
echo "$0: OK"
