#!/bin/bash -
# bench/build-peer.sh: build examples/threaded-reads-and-writes.c against
# Debian's libnbd (system header, system -lnbd) into bench/build-peer/,
# and find this tree's own build of the same example.  Run by hand.
#
# The peer is never linked into the project's build: it is compiled
# with only the system include and library paths, with every variable
# that could point gcc or the loader at the build tree removed.

set -euo pipefail
. "$(dirname "$0")/functions.sh"

require gcc ldd
[ -f /usr/include/libnbd.h ] ||
  die "no /usr/include/libnbd.h: apt-get install libnbd-dev"
[ -f "$example_src" ] || die "no example source at $example_src"

mkdir -p "$peer_dir"
# Same optimisation as the project's default CFLAGS (-g -O2).
env -u CPATH -u C_INCLUDE_PATH -u LIBRARY_PATH -u LD_LIBRARY_PATH \
    -u LD_RUN_PATH \
  gcc -g -O2 -Wall -Wextra -pthread \
      "$example_src" -o "$peer_bin.tmp" -lnbd
mv -f "$peer_bin.tmp" "$peer_bin"
echo "built peer: $peer_bin"
echo "  system libnbd: $(dpkg-query -W -f='${Version}' libnbd0 2>/dev/null ||
                      echo unknown)"

# The project's binary may not be built yet; say so, but the peer is done.
if ! ( setup_commands && check_libraries ); then
  echo "NOTE: build the tree (make) before running the benchmarks"
fi
