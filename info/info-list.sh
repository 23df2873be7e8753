#!/bin/bash -
# info-list.sh: --list shows every export the server lists, with its
# own size and description, in text and in JSON; an export it cannot
# open is reported and the others still shown.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires python3 --version

# nbdkit's eval plugin: three exports (names and descriptions
# interleaved), each with its own size; the handle is the name.  It
# must serve parallel connections, as --content opens one per export
# while the first is still open.
list='INTERLEAVED\nsmall\na small disk\nbig\n\nweird "q"\nback\\slash\n'
start_nbdkit three eval thread_model='echo parallel' \
  list_exports="printf '$list'" \
  open='echo "$3"' \
  get_size='case "$2" in small) echo 512;; big) echo 1G;; *) echo 2M;; esac' \
  pread='dd if=/dev/zero count=$3 iflag=count_bytes status=none'

nbdinfo --list "$uri" > "$tmp/list"
grep '^export=' "$tmp/list" > "$tmp/names"
printf '%s\n' 'export="small":' 'export="big":' 'export="weird \"q\"":' |
  diff -u - "$tmp/names"
grep -c '^	export-size: ' "$tmp/list" | grep -qx 3
grep -qx '	export-size: 1073741824 (1G)' "$tmp/list"
grep -qx '	description: a small disk' "$tmp/list"
grep -qx '	description: back\\slash' "$tmp/list"
grep -qx "	uri: nbd+unix:///weird%20%22q%22?socket=$tmp/three.sock" "$tmp/list"
# Content is not probed by default with --list.
! grep -q 'content:' "$tmp/list"

# The export name in the URI does not matter.
nbdinfo --list "nbd+unix:///big?socket=$tmp/three.sock" |
  grep '^export=' | diff -u "$tmp/names" -

nbdinfo --list --json "$uri" > "$tmp/list.json"
json_check "$tmp/list.json" \
  '[e["export-name"] for e in j["exports"]] ==
     ["small", "big", "weird \"q\""]' \
  '[e["export-size"] for e in j["exports"]] == [512, 1 << 30, 2 << 20]' \
  '[e.get("description") for e in j["exports"]] ==
     ["a small disk", None, "back\\slash"]' \
  'all("content" not in e for e in j["exports"])'

# With --content each export gets a connection of its own.
nbdinfo --list --json --content "$uri" > "$tmp/content.json"
json_check "$tmp/content.json" \
  'len(j["exports"]) == 3' \
  'all(e["content"] == "data" for e in j["exports"])'

# An export listed but refused: the others are shown, exit status 1,
# and the JSON stays valid.
start_nbdkit liar eval \
  list_exports='printf "a\ngone\nc\n"' \
  open='[ "$3" != gone ] || { echo "ENOENT no" >&2; exit 1; }; echo "$3"' \
  get_size='echo 1M' \
  pread='dd if=/dev/zero count=$3 iflag=count_bytes status=none'
expect_status 1 nbdinfo --list --json "$uri" > "$tmp/liar.json" \
  2> "$tmp/liar.err"
json_check "$tmp/liar.json" \
  '[e["export-name"] for e in j["exports"]] == ["a", "c"]'
grep -q 'for export: gone' "$tmp/liar.err"

# No exports at all.
start_nbdkit none --filter=exportname memory 1M exportname-list=explicit
nbdinfo --list --json "$uri" > "$tmp/none.json"
json_check "$tmp/none.json" 'j["exports"] == []'
nbdinfo --list "$uri" > "$tmp/none.txt"
[ "$(wc -l < "$tmp/none.txt")" = 1 ]
echo "$0: OK"
