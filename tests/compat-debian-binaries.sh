#!/bin/bash -
# compat-debian-binaries.sh: programs built against Debian's libnbd
# (nbdinfo and nbdcopy from libnbd-bin) run unchanged on this library,
# and copy byte for byte what Debian's own library copies.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

requires test -x /usr/bin/nbdcopy
requires test -x /usr/bin/nbdinfo
requires nbdkit --version

# A sanitizer build cannot be loaded into programs built without it.
if ldd "$LIBNBD_BUILT_LIBRARY" | grep libasan > /dev/null; then
  echo "$0: SKIP: the library is built with AddressSanitizer"
  exit 77
fi

# ../run put our lib/.libs first: the dynamic linker must pick it.
lib=$(ldd /usr/bin/nbdcopy | awk '/libnbd.so.0/ {print $3}')
if [ "$(realpath "$lib")" != "$(realpath "$LIBNBD_BUILT_LIBRARY")" ]; then
  echo "$0: nbdcopy loads $lib, not $LIBNBD_BUILT_LIBRARY"
  exit 1
fi

d=$(mktemp -d)
cleanup_fn rm -rf "$d"

# nbdinfo reports the export as the server describes it.
nbdkit -U - -r memory 1M --run '$VG /usr/bin/nbdinfo --json "$uri"' > "$d/info.json"
grep -q '"export-size": 1048576' "$d/info.json"
grep -q '"is_read_only": true' "$d/info.json"
grep -q '"base:allocation"' "$d/info.json"

# nbdcopy of a sparse random disk: the same bytes as the server's,
# compared through a second copy made by a plain file read.
nbdcopy -- [ nbdkit --exit-with-parent sparse-random size=64M seed=7 ] \
  "$d/ours.img"
env -u LD_LIBRARY_PATH nbdcopy -- \
  [ nbdkit --exit-with-parent sparse-random size=64M seed=7 ] \
  "$d/theirs.img"
cmp "$d/ours.img" "$d/theirs.img"

# And in the other direction, into an NBD server, read back.
nbdkit -U - memory 64M --run "
  nbdcopy '$d/ours.img' \"\$uri\" && nbdcopy \"\$uri\" '$d/back.img'"
cmp "$d/ours.img" "$d/back.img"
echo "$0: OK"
