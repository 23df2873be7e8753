#!/bin/bash -
# misbehave-bs-twice-info.sh: nbdinfo --map (with --totals, --json)
# and nbddump, which read extents through the same walk as nbdcopy,
# fail with a clear error when a server describes the same bytes twice
# in one block status reply (fake-server bs-twice: the first half of
# the request, then the whole of it; bs-twice-reversed: the other way
# round).  Laid end to end, the hole at [256 KiB, 384 KiB) would be
# reported a second time at [768 KiB, 896 KiB), which holds data.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

requires test -x "${builddir:-.}/../info/nbdinfo"
requires test -x "${builddir:-.}/../dump/nbddump"
make_tmpdir
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi
twice='server described the same extents twice'

# refused PREFIX COMMAND ARGS...: COMMAND fails, saying PREFIX and why.
refused ()
{
  local prefix=$1
  shift
  echo "== $*"
  if $VG "$@" > "$tmp/out" 2> "$tmp/err"; then
    cat "$tmp/out" "$tmp/err"
    echo "$0: FAIL: $* succeeded"
    exit 1
  fi
  cat "$tmp/err"
  grep -q "^$prefix: block status failed at offset 0: $twice\$" "$tmp/err"
}

for s in bs-twice bs-twice-reversed; do
  refused 'nbdinfo: --map' nbdinfo --map [ fake-server "$s" ]
  refused 'nbdinfo: --map' nbdinfo --map --totals [ fake-server "$s" ]
  refused 'nbdinfo: --map' nbdinfo --map --json [ fake-server "$s" ]
  refused nbddump nbddump [ fake-server "$s" ]
done
