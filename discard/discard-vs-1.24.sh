#!/bin/bash -
# discard-vs-1.24.sh: libnbd 1.24's own nbddiscard and nbdzero (Python
# scripts, from Debian sid's libnbd-bin) run on OUR Python module, and
# ours, each against a fresh server holding the same data: the same
# exit status, standard output, requests sent (nbdkit's log filter) and
# map afterwards; the same error messages, once ours lose their
# "PROGRAM: " prefix and 1.24's the errno name Python adds.  Skipped
# where the unpacked tree (scripts/peer-libnbd-1.24.sh) or our Python
# module is missing.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

D=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ ! -f "$D/R/usr/bin/nbddiscard" ] || [ ! -f "$D/R/usr/bin/nbdzero" ]; then
  echo "$0: SKIP: no libnbd 1.24 tree in $D (scripts/peer-libnbd-1.24.sh makes it)"
  exit 77
fi
source "${srcdir:-.}/../python/sanitizer-preload.sh"
py ()
{
  env ${py_preload:+LD_PRELOAD="$py_preload"} python3 "$@"
}
where=$(py -c 'import nbd; print(nbd.__file__)' 2>/dev/null) || where=
case "$where" in
  "$top_builddir"/python/*) ;;
  *) echo "$0: SKIP: our Python module is not built (import nbd: '$where')"
     exit 77 ;;
esac

# 1.24's scripts call nbd_get_version_extra (new in 1.24) for
# --version.  Where our module lacks it, they run with a stand-in
# returning "" (what 1.24 returns without --with-extra), said here.
runner=()
if ! py -c 'import nbd, sys; sys.exit(not hasattr(nbd.NBD, "get_version_extra"))'
then
  echo "$0: note: our Python module lacks get_version_extra: 1.24's" \
       "scripts run with a stand-in returning \"\""
  cat > "$tmp/shim.py" <<'EOF2'
import runpy, sys
import nbd
nbd.NBD.get_version_extra = lambda self: ""
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
EOF2
  runner=("$tmp/shim.py")
fi
theirs ()
{
  py "${runner[@]}" "$D/R/usr/bin/$1" "${@:2}"
}
ours ()
{
  "$@"
}

server=(memory 4M)              # what each run is served, filled first
fill_size=4M
input=y                         # the answer to the question, if asked

# run WHO PROG ARGS...: WHO (theirs, ours) runs PROG ARGS, @URI in ARGS
# standing for its own fresh server's URI; leaves WHO.status, .out
# (the server's URI written @URI), .err, .cmds and .map in $tmp.
run ()
{
  local who=$1 prog=$2 status=0 a args=()
  shift 2
  serve "$who" "${server[@]}"
  if [ -n "$fill_size" ]; then fill "$who" "$fill_size"; fi
  for a in "$@"; do args+=("${a//@URI/$uri}"); done
  printf "$input" | $who $prog "${args[@]}" > "$tmp/$who.out" 2> "$tmp/$who.err" ||
    status=$?
  echo $status > "$tmp/$who.status"
  sed -i "s|$uri|@URI|g" "$tmp/$who.out"
  commands "$who" > "$tmp/$who.cmds"
  nbdinfo --map "$uri" > "$tmp/$who.map" 2>&1 || :
}

# differ THEIRS OURS WHAT COMMAND
differ ()
{
  echo "$0: FAIL: $4: $3 differs (1.24 -, ours +)"
  diff -u "$1" "$2" || :
  exit 1
}

# same [--any-stderr] PROG ARGS...: both runs agree.
same ()
{
  local any_stderr=false f
  if [ "$1" = --any-stderr ]; then any_stderr=true; shift; fi
  run theirs "$@"
  run ours "$@"
  for f in status out cmds map; do
    cmp -s "$tmp/theirs.$f" "$tmp/ours.$f" ||
      differ "$tmp/theirs.$f" "$tmp/ours.$f" "$f" "$*"
  done
  if ! $any_stderr; then
    sed -E 's/ \(E[A-Z0-9]+\)$//' "$tmp/theirs.err" > "$tmp/theirs.msg"
    sed "s/^$1: //" "$tmp/ours.err" > "$tmp/ours.msg"
    cmp -s "$tmp/theirs.msg" "$tmp/ours.msg" ||
      differ "$tmp/theirs.msg" "$tmp/ours.msg" stderr "$*"
  fi
  echo "same: $* (status $(cat "$tmp/ours.status"))"
}

for prog in nbddiscard nbdzero; do
  same $prog --short-options
  same $prog --long-options
  same --any-stderr $prog --no-such-option @URI
  same --any-stderr $prog -y @URI @URI
  same --any-stderr $prog -o
  same $prog -y @URI
  same $prog -y -o 1M -l 2M @URI
  same $prog -y -o 1k -l 3K @URI
  same $prog -y -o 3M -l 2M @URI
  same $prog -y -q -o 3M -l 2M @URI
  same $prog -y -o 4M @URI
  same $prog -y -o 1G @URI
  same $prog -q -o 5M @URI
  same $prog -y -l 20E @URI
  same $prog -c @URI
  same $prog -c -q @URI
  same $prog -c -o 4095K @URI
  same $prog -c -o 5M @URI
  same --any-stderr $prog -c -v -o 1M @URI
  same $prog -y -l 1x @URI
  same $prog -y "nbd+unix:///?socket=$tmp/nothing-here.sock"
  same $prog -y --fast-zero -o 2M @URI
  same --any-stderr $prog -y -v --fast-zero -o 2M @URI
  input=n same $prog @URI
  input= same $prog -o 2M @URI
  input='Y\n' same $prog -o 1M -l 1M @URI
  input='yes' same $prog -l 1M @URI
done
same nbddiscard
# --version: 1.24 prints one line, ours the same line and libnbd's.
for prog in nbddiscard nbdzero; do
  test "$(theirs $prog --version)" = "$($prog --version | head -1)"
done
same nbddiscard -y -z -o 1M @URI
same nbddiscard -y -z -l 1M @URI

# An export already zero: --check agrees, with -v too.
fill_size=
for prog in nbddiscard nbdzero; do
  same $prog -c @URI
  same --any-stderr $prog -c -v @URI
done

# 1 GiB requests without extended headers.
server=(memory 2561M)
same nbdzero -y -o 1K @URI
same nbddiscard -y -o 1K -l 2049M @URI
same nbdzero -c -o 1G @URI

# What the server lacks, each refused the same way.
fill_size=
server=(-r memory 1M)
same nbddiscard -y @URI
same nbdzero -y @URI
same nbdzero -c @URI
fill_size=1M
server=(--filter=nozero memory 1M zeromode=none)
same nbdzero -y @URI
same nbddiscard -y --fast-zero @URI
same nbddiscard -y @URI
server=(--filter=nozero memory 1M zeromode=plugin fastzeromode=none)
same nbdzero -y --fast-zero @URI
same nbdzero -y @URI
server=(--filter=nozero memory 1M zeromode=plugin fastzeromode=slow)
same nbdzero -y --fast-zero @URI
server=(--no-sr memory 1M)
same nbdzero -c @URI
same nbddiscard -y @URI
echo "$0: OK"
