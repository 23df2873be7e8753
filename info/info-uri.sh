#!/bin/bash -
# info-uri.sh: --uri prints the canonical URI, as a JSON string with
# --json; a subprocess has no meaningful URI, so the default mode
# leaves it out.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

start_nbdkit mem --filter=exportname memory 1M
[ "$(nbdinfo --uri "$uri")" = "$uri" ]
[ "$(nbdinfo --uri --json "$uri")" = "\"$uri\"" ]

# The export name is part of the URI, percent-encoded as needed.
[ "$(nbdinfo --uri "nbd+unix:///disk?socket=$tmp/mem.sock")" = \
  "nbd+unix:///disk?socket=$tmp/mem.sock" ]
[ "$(nbdinfo --uri "nbd+unix:///a%20b?socket=$tmp/mem.sock")" = \
  "nbd+unix:///a%20b?socket=$tmp/mem.sock" ]

nbdinfo "$uri" | grep -qx "	uri: $uri"
nbdinfo -- [ nbdkit memory 1M ] > "$tmp/cmd.txt"
! grep -q 'uri:' "$tmp/cmd.txt"
echo "$0: OK"
