#!/usr/bin/env bash
# scripts/peer-libnbd-1.24.sh: unpack libnbd 1.24 (the behaviour
# reference), nbdkit 1.48 (the server for fault tests: Debian 12's
# nbdkit 1.32.5 aborts when a client dies mid-write) and qemu-nbd from
# Debian sid packages into a cache directory outside the tree, without
# installing anything.  An existing unpacked tree is reused.  It writes
#   DIR/run PROGRAM ARGS   run a program through sid's loader, libnbd
#                          1.24's libnbd.so.0 first
#   DIR/nbdcopy DIR/nbdinfo DIR/nbddump DIR/nbdfuse DIR/qemu-nbd
#   DIR/nbdkit             nbdkit 1.48; short plugin and filter names
#                          are resolved to its own
#   DIR/R/usr/share/man    1.24's manual pages
#   DIR/R/usr/lib/python3/dist-packages/nbdsh.py, nbd.py
#                          1.24's nbdsh and Python layer (its C module
#                          is for sid's Python; sh/test-vs-1.24.sh runs
#                          them on our module)
#
# usage: scripts/peer-libnbd-1.24.sh [DIR]
#   DIR defaults to $LIBNBD_PEER_1_24_DIR, else
#   /var/cache/libnbd-peers/debian-sid.
# Needs apt-get and dpkg-deb (Debian or Ubuntu on x86_64).  Exits
# non-zero if it cannot: the tests that need it then skip, saying why.
set -euo pipefail

dir=${1:-${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}}
lib=$dir/R/usr/lib/x86_64-linux-gnu
nbdsh_py=$dir/R/usr/lib/python3/dist-packages/nbdsh.py
if [ -x "$dir/run" ] && [ -e "$lib/libnbd.so.0" ] && [ -x "$dir/nbdkit" ] &&
   [ -e "$nbdsh_py" ]; then
  echo "libnbd 1.24 already unpacked in $dir"
  exit 0
fi
for p in apt-get dpkg-deb; do
  command -v "$p" >/dev/null || { echo "$0: $p is needed" >&2; exit 1; }
done
mkdir -p "$dir"/{apt/lists/partial,apt/archives/partial,R}

# A private sources list naming sid on the mirror this machine uses.
mirror=$(grep -rhoE '(http|https)://[^ ]+/debian/?( |$)' \
           /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
         head -1 | tr -d ' ' || :)
if [ -z "$mirror" ]; then
  mirror=$(grep -rhoE 'URIs: *[^ ]+/debian$' /etc/apt/sources.list.d/ \
             2>/dev/null | head -1 | sed 's/URIs: *//' || :)
fi
mirror=${mirror:-http://deb.debian.org/debian}
echo "deb ${mirror%/} sid main" >"$dir/apt/sources.list"
apt=(-o Dir::Etc::SourceList="$dir/apt/sources.list"
     -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$dir/apt/lists"
     -o Dir::Cache="$dir/apt"
     -o Debug::NoLocking=1)
apt-get "${apt[@]}" -qq update

# libnbd, nbdkit, qemu-nbd, and sid's versions of what they link
# (Debian 12's libraries are too old for them).
packages=(libnbd0 libnbd-bin libnbd-dev python3-libnbd nbdkit qemu-utils libc6
          libgnutls30t64 libnettle8t64 libhogweed6t64 libunistring5
          libidn2-0 libtasn1-6 libp11-kit0 libselinux1 libxml2-16 libgmp10
          libpcre2-8-0 libffi8 libaio1t64 libfuse3-4 libglib2.0-0t64
          liburing2 libnuma1 libzstd1 libmount1 libblkid1)
(cd "$dir/apt/archives" &&
 apt-get "${apt[@]}" -qq download "${packages[@]}" 2>/dev/null)
for deb in "$dir"/apt/archives/*.deb; do
  dpkg-deb -x "$deb" "$dir/R"
done

printf '#!/bin/sh\nexec %s/ld-linux-x86-64.so.2 --library-path %s:/usr/lib/x86_64-linux-gnu "$@"\n' \
  "$lib" "$lib" >"$dir/run"
chmod +x "$dir/run"
for p in nbdcopy nbdinfo nbddump nbdfuse qemu-nbd; do
  printf '#!/bin/sh\nexec %s/run %s/R/usr/bin/%s "$@"\n' "$dir" "$dir" "$p" \
    >"$dir/$p"
  chmod +x "$dir/$p"
done

# nbdkit finds its plugins and filters by short name in its own tree,
# never in Debian 12's (whose builds do not load into 1.48).
k=$lib/nbdkit
cat >"$dir/nbdkit" <<EOF
#!/bin/bash
args=() plugin=
for a in "\$@"; do
  case \$a in
    --filter=*/*) ;;
    --filter=*)
      f=$k/filters/nbdkit-\${a#--filter=}-filter.so
      [ -e "\$f" ] && a=--filter=\$f ;;
    -*|*=*) ;;
    *)
      f=$k/plugins/nbdkit-\$a-plugin.so
      if [ -z "\$plugin" ] && [ -e "\$f" ]; then a=\$f; plugin=1; fi ;;
  esac
  args+=("\$a")
done
exec $dir/run $dir/R/usr/bin/nbdkit "\${args[@]}"
EOF
chmod +x "$dir/nbdkit"
"$dir/nbdinfo" --version | head -1 || :
"$dir/nbdkit" --version | head -1 || :
