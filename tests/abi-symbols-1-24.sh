#!/bin/bash -
# abi-symbols-1-24.sh: every function libnbd 1.24.4's libnbd.so.0
# exports is exported by ours at the same symbol version, and ours
# exports nothing more.  Needs the tree scripts/peer-libnbd-1.24.sh
# unpacks.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

D=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
theirs=$D/R/usr/lib/x86_64-linux-gnu/libnbd.so.0
if [ ! -f "$theirs" ]; then
  echo "$0: SKIP: no libnbd 1.24.4 in $D (scripts/peer-libnbd-1.24.sh)"
  exit 77
fi
requires objdump --version
make_tmpdir

# "VERSION nbd_name" for each defined nbd_* symbol of $1.
symbols ()
{
  objdump -T "$1" | awk '$NF ~ /^nbd_/ && $2 != "*UND*" && $0 !~ /\*UND\*/ {
    print $(NF-1), $NF }' | LC_ALL=C sort -u
}
symbols "$theirs" > "$tmp/theirs"
symbols "$LIBNBD_BUILT_LIBRARY" > "$tmp/ours"
grep -q '^LIBNBD_1.24 nbd_get_version_extra$' "$tmp/theirs" || {
  echo "$0: cannot read 1.24.4's symbols from $theirs"; exit 1; }
if ! cmp -s "$tmp/theirs" "$tmp/ours"; then
  echo "$0: symbol@version differences (- 1.24.4 only, + ours only):"
  diff -u "$tmp/theirs" "$tmp/ours" | grep '^[-+][A-Z]' || :
  exit 1
fi
echo "$0: OK: the same $(wc -l < "$tmp/ours") symbols at the same versions"
