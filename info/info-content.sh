#!/bin/bash -
# info-content.sh: the content line is file(1)'s verdict on the first
# sectors; --no-content drops it, --list leaves it out unless asked.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires file --version

content ()
{
  nbdinfo "$@" | sed -n 's/^\tcontent: //p'
}

# An MBR boot signature.
start_nbdkit mbr data "@510 0x55 0xaa" size=1M
content "$uri" | grep -q '^DOS/MBR boot sector'
[ -z "$(content --no-content "$uri")" ]
[ -z "$(content --list "$uri")" ]
content --list --content "$uri" | grep -q '^DOS/MBR boot sector'

# Plain text, shorter than the probe, and an empty export.
start_nbdkit text data '"hello, world" 10'
[ "$(content "$uri")" = "ASCII text" ]
start_nbdkit empty null
[ "$(content "$uri")" = "empty" ]

# Past the first 8 KiB nothing is read: a signature there is unseen.
start_nbdkit late data "@8192 0x55 0xaa" size=1M
[ "$(content "$uri")" = "data" ]
echo "$0: OK"
