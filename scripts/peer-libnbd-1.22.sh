#!/usr/bin/env bash
# scripts/peer-libnbd-1.22.sh: unpack libnbd 1.22.2 (the behaviour
# reference of tests/diff.tap), with nbdkit 1.42 and what they link,
# from Debian 13 (trixie) packages into a cache directory outside the
# tree, without installing anything.  An existing unpacked tree is
# reused.  It writes DIR/run PROGRAM ARGS (run a program through
# trixie's loader, 1.22.2's libnbd.so.0 first) and DIR/nbdcopy,
# DIR/nbdinfo, DIR/nbddump, DIR/nbdkit wrappers.
#
# usage: scripts/peer-libnbd-1.22.sh [DIR]
#   DIR defaults to $LIBNBD_PEER_DIR, else /var/cache/libnbd-peers/debian13.
# Needs apt-get and dpkg-deb (Debian or Ubuntu on x86_64).  Exits
# non-zero if it cannot: the differential tests then skip, saying why.
set -euo pipefail

dir=${1:-${LIBNBD_PEER_DIR:-/var/cache/libnbd-peers/debian13}}
lib=$dir/R/usr/lib/x86_64-linux-gnu
if [ -x "$dir/run" ] && [ -e "$lib/libnbd.so.0" ]; then
  echo "libnbd 1.22.2 already unpacked in $dir"
  exit 0
fi
for p in apt-get dpkg-deb; do
  command -v "$p" >/dev/null || { echo "$0: $p is needed" >&2; exit 1; }
done
mkdir -p "$dir"/{apt/lists/partial,apt/archives/partial,R}

# A private sources list naming trixie on the mirror this machine uses.
mirror=$(grep -rhoE '(http|https)://[^ ]+/debian/?( |$)' \
           /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
         head -1 | tr -d ' ' || :)
mirror=${mirror:-http://deb.debian.org/debian}
echo "deb ${mirror%/} trixie main" >"$dir/apt/sources.list"
apt=(-o Dir::Etc::SourceList="$dir/apt/sources.list"
     -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$dir/apt/lists"
     -o Dir::Cache="$dir/apt"
     -o Debug::NoLocking=1)
apt-get "${apt[@]}" -qq update

# libnbd and nbdkit, and trixie's versions of the libraries they need
# (Debian 12's are too old for them).
packages=(libnbd0 libnbd-bin libnbd-dev nbdkit libc6 libgnutls30t64
          libnettle8t64 libhogweed6t64 libunistring5 libidn2-0 libtasn1-6
          libp11-kit0 libselinux1 libxml2 libgmp10 libpcre2-8-0 libffi8
          libzstd1)
(cd "$dir/apt/archives" && apt-get "${apt[@]}" -qq download "${packages[@]}")
for deb in "$dir"/apt/archives/*.deb; do
  dpkg-deb -x "$deb" "$dir/R"
done

printf '#!/bin/sh\nexec %s/ld-linux-x86-64.so.2 --library-path %s:/usr/lib/x86_64-linux-gnu "$@"\n' \
  "$lib" "$lib" >"$dir/run"
chmod +x "$dir/run"
for p in nbdcopy nbdinfo nbddump nbdkit; do
  printf '#!/bin/sh\nexec %s/run %s/R/usr/bin/%s "$@"\n' "$dir" "$dir" "$p" \
    >"$dir/$p"
  chmod +x "$dir/$p"
done
"$dir/nbdinfo" --version | head -1 || :
