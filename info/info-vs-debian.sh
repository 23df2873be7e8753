#!/bin/bash -
# info-vs-debian.sh: our nbdinfo and Debian's (libnbd-bin 1.14, on
# Debian's libnbd) print the same lines about the same exports, except
# where 1.22, which we follow, changed them: the "extended" (headers)
# member and the can_block_status_payload flag are new, and block sizes
# in the text output gained a human size, "4096 (4K)".
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires test -x /usr/bin/nbdinfo

# same ARGS...: both print the same, once the lines only we print are
# taken out of ours; and those lines are there.
same ()
{
  nbdinfo "$@" > "$tmp/ours" 2>/dev/null || echo "status $?" >> "$tmp/ours"
  debian_nbdinfo "$@" > "$tmp/theirs" 2>/dev/null ||
    echo "status $?" >> "$tmp/theirs"
  grep -v -e '^	can_block_status_payload: ' \
       -e '^	"can_block_status_payload": ' \
       -e '^"extended": ' "$tmp/ours" |
    sed -e 's/^\(	block_size_[a-z]*: [0-9]*\) ([0-9]*[KMGTPE])$/\1/' \
        -e "${extra_filter:-}" > "$tmp/filtered" || :
  if ! diff -u "$tmp/theirs" "$tmp/filtered"; then
    echo "$0: FAIL: nbdinfo $* differs from Debian's (- Debian, + ours)"
    exit 1
  fi
  compared=$((compared + 1))
}
compared=0

# Default and JSON output of several kinds of export.
start_nbdkit mem memory 1M
same "$uri"
same --json "$uri"
grep -qx '	can_block_status_payload: false' <(nbdinfo "$uri")
grep -qx '"extended": false,' <(nbdinfo --json "$uri")

desc=$(printf 'my "disk" \\ with\ta tab')
start_nbdkit ro -r --filter=blocksize-policy --filter=exportname \
  null size=1536 blocksize-minimum=1 blocksize-preferred=4096 \
  blocksize-maximum=64M exportdesc=fixed:"$desc"
for mode in "" --json --no-content "--json --no-content"; do
  same $mode 'nbd+unix:///a%22b?socket='"$tmp/ro.sock"
done
# Without structured replies 1.14's library refuses to ask for the
# meta contexts; 1.22 asks anyway (the server may still list them, as
# nbdkit does), so we print contexts that Debian's nbdinfo does not.
start_nbdkit nosr --no-sr null 1T
extra_filter='/^	contexts:$/,/^		base:allocation$/d'
same "$uri"
extra_filter='/^	"contexts": \[$/,/^	\],$/d'
same --json "$uri"
extra_filter=
start_nbdkit old --oldstyle memory 1M
same "$uri"
same --json "$uri"

# Size and flags.
for u in "$tmp/mem.sock" "$tmp/ro.sock"; do
  u="nbd+unix:///?socket=$u"
  same --size "$u"
  same --size --json "$u"
  for flag in read-only write rotational cache df fast-zero flush fua \
              multi-conn trim zero connect read tls; do
    same --can "$flag" "$u"
  done
done

# Maps and totals, text and JSON, base:allocation and a sparse export.
start_nbdkit data data "@0 1 @32768 1 @1048576 2 @4194304 3" size=8M
for mode in --map "--map --json" "--map --totals" "--map --totals --json" \
            --map=base:allocation; do
  same $mode "$uri"
done
start_nbdkit tib data "@0 1 @1099511595008 1" size=1T
same --map "$uri"
same --map --totals "$uri"
start_nbdkit empty null
same --map "$uri"
same --map --totals --json "$uri"

# Lists: several exports, with descriptions; with content; none.
start_nbdkit list --filter=exportname memory 1M exportname-list=explicit \
  exportname=a exportname='b c' exportname='"q"' \
  exportdesc=fixed:'the same disk'
for mode in --list "--list --json" "--list --content" \
            "--list --json --content"; do
  same $mode "$uri"
done
start_nbdkit none --filter=exportname memory 1M exportname-list=explicit
same --list "$uri"
same --list --json "$uri"

# The subprocess form.
same -- [ nbdkit memory 1M ]
same --json -- [ nbdkit null 1M ]
same --map -- [ nbdkit data "@1048576 1" size=2M ]

# Errors: both exit 1.
same --map=no:such "nbd+unix:///?socket=$tmp/mem.sock"
same "nbd+unix:///?socket=$tmp/no.sock"
same --totals "nbd+unix:///?socket=$tmp/mem.sock"
echo "$0: OK ($compared comparisons)"
