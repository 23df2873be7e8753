#!/bin/bash -
# io-no-batch.sh: with LIBNBD_NO_BATCH=1 every request is sent on its
# own (header and payload in separate calls); the data tests must pass
# on that send path too.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

requires nbdkit --version

export LIBNBD_NO_BATCH=1
for t in io-round-trip io-aio-parallel io-manual-poll io-notify-both io-threads; do
  echo "== $t with LIBNBD_NO_BATCH=1"
  $VG "${builddir:-.}/$t"
done
echo "$0: OK"
