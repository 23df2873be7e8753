#!/bin/bash -
# info-vs-124.sh: our nbdinfo and libnbd 1.24.4's (on its own library)
# print the same, on stdout and stderr, with the same exit status, about
# the same exports in every mode: plain, --json, --map (with --totals,
# a context, one the server lacks), --list, --size, --uri, --content,
# --can/--is/--has, a missing export, a refused connection.  Only the
# program name before an error differs (1.24 prints the path it was
# run by).
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ ! -x "$peer/nbdinfo" ]; then
  echo "$0: SKIP: libnbd 1.24.4's nbdinfo is not in $peer" \
       "(scripts/peer-libnbd-1.24.sh makes it)"
  exit 77
fi
requires nbdkit data --version
requires nbdkit sparse-random --version
requires nbdkit --filter=exportname null --version

same ()
{
  local s=0
  nbdinfo "$@" > "$tmp/ours" 2>&1 || s=$?
  echo "status $s" >> "$tmp/ours"
  s=0
  "$peer/nbdinfo" "$@" 2>&1 | sed "s|^$peer/R/usr/bin/nbdinfo:|nbdinfo:|" \
    > "$tmp/theirs" || :
  "$peer/nbdinfo" "$@" > /dev/null 2>&1 || s=$?
  echo "status $s" >> "$tmp/theirs"
  if ! diff -u "$tmp/theirs" "$tmp/ours"; then
    echo "$0: FAIL: nbdinfo $* differs from 1.24.4's (- 1.24.4, + ours)"
    exit 1
  fi
}

start_nbdkit data data data='1 @65536 2 @1048575 3' size=2M
d=$uri
start_nbdkit sr sparse-random size=100M seed=5
r=$uri
start_nbdkit list --filter=exportname memory 1M exportname=a \
             exportname=b exportname-list=explicit
l=$uri

for u in "$d" "$r"; do
  for o in "" --json --map "--map --json" "--map --totals" \
           "--map --totals --json" --size --uri --content --no-content \
           "--is read-only" "--is rotational" "--is tls" "--can trim" \
           "--can multi-conn" "--can fua" "--can cache" "--can nosuch" \
           "--has structured-reply" "--has extended-headers" \
           "--map=qemu:allocation-depth" "--map=nosuch" "--size --json"; do
    same $o "$u"
  done
done
for o in --list "--list --json" "--list --content" -L; do
  same $o "$l"
done
same "${l/\?/nosuch?}"
# The library's words for a refused TCP connection differ (1.24 says
# "could not connect to remote host: "): the exit status only.
s=0; nbdinfo nbd://localhost:1 2>/dev/null || s=$?
test $s = 1
s=0; "$peer/nbdinfo" nbd://localhost:1 2>/dev/null || s=$?
test $s = 1
