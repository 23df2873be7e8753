#!/bin/bash -
# run-examples.sh: run each example of rust/examples/ against an nbdkit
# this test starts, and check its output; one TAP result each.
set -u
. "$srcdir/tap-skip.sh"
if ! command -v nbdkit >/dev/null; then
  echo "1..0 # SKIP nbdkit not installed"
  exit 0
fi
. "$srcdir/cargo-env.sh" || exit 1

if ! "$CARGO" build --offline --quiet --examples >/dev/null 2>&1; then
  "$CARGO" build --offline --examples 2>&1 | sed 's/^/# /'
  echo "1..1"
  echo "not ok 1 - cargo build --examples"
  exit 0
fi
ex="$CARGO_TARGET_DIR/debug/examples"

d=$(mktemp -d)
cleanup () { kill "$(cat "$d/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$d"; }
trap cleanup EXIT
nbdkit -f -U "$d/sock" -P "$d/pid" --exit-with-parent pattern size=1M &
for i in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.1; done
uri="nbd+unix:///?socket=$d/sock"

n=0
check ()
{
  local name=$1 expect=$2; shift 2
  local out
  n=$((n + 1))
  out=$("$@" 2>&1)
  printf '%s\n' "$out" | sed 's/^/# /'
  if printf '%s\n' "$out" | grep -q -e "$expect"; then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name: no \"$expect\" in the output"
  fi
}

check get-size '^1048576$' "$ex/get-size" "$uri"
# The pattern plugin: the word at offset 8 is 8, big-endian.
check fetch-first-sector \
  '^00000000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 08$' \
  "$ex/fetch-first-sector" "$uri"
check connect-command '^size: 2097152$' \
  "$ex/connect-command" env -u LD_PRELOAD \
  nbdkit -s --exit-with-parent memory size=2M
# Second block of the pattern: the word at 512 is 0x200.
check aio-read '^second: \[00, 00, 00, 00, 00, 00, 02, 00, 00, 00, 00, 00, 00, 00, 02, 08\]$' \
  "$ex/aio-read" "$uri"
kill "$(cat "$d/pid")"; wait; rm -f "$d/pid" "$d/sock"
nbdkit -f -U "$d/sock" -P "$d/pid" --exit-with-parent memory size=1M &
for i in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.1; done
check concurrent-read-write '^256 blocks written and read back$' \
  "$ex/concurrent-read-write" "$uri"
echo "1..$n"
