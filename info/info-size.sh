#!/bin/bash -
# info-size.sh: --size prints the export size in bytes, alone.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

# nbdkit size argument, then the bytes nbdinfo must print.
for pair in 0:0 1:1 512:512 1M:1048576 1234567:1234567 \
            1T:1099511627776 9223372036854775296:9223372036854775296; do
  start_nbdkit "s$RANDOM" null size="${pair%:*}"
  got=$(nbdinfo --size "$uri")
  if [ "$got" != "${pair#*:}" ]; then
    echo "$0: FAIL: size=${pair%:*}: got '$got', expected '${pair#*:}'"
    exit 1
  fi
  # --json changes nothing: a bare number is valid JSON.
  [ "$(nbdinfo --size --json "$uri")" = "${pair#*:}" ]
done
echo "$0: OK"
