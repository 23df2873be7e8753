#!/bin/bash -
# build.sh: configure (with warnings as errors) and build, from a fresh
# clone or an existing build tree.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x configure ]; then
  autoreconf -i
fi
if [ ! -f Makefile ]; then
  ./configure --enable-gcc-warnings
fi
make -j"$(nproc)"
