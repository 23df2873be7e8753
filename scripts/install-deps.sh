#!/bin/bash -
# install-deps.sh: install the Debian 12 packages that building and
# testing need.  Idempotent: does nothing when they are all present.
set -euo pipefail

packages=(
  build-essential autoconf automake libtool pkg-config
  ocaml-nox ocaml-findlib
  libxml2-dev libgnutls28-dev libev-dev
  nbdkit qemu-utils nbd-server
  valgrind strace g++ libnbd-bin
  golang-go gnutls-bin
  file python3 python3-dev groff-base perl gnuplot-nox
  libfuse3-dev fuse3
  rustc cargo librust-libc-dev librust-bitflags-dev librust-errno-dev
  librust-log-dev librust-tokio-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
       grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo=
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
