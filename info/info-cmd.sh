#!/bin/bash -
# info-cmd.sh: [ CMD ARGS ... ] runs the server by systemd socket
# activation, in every mode, and it is gone when nbdinfo exits.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires python3 --version

[ "$(nbdinfo --size -- [ nbdkit null 1M ])" = 1048576 ]
expect_status 0 nbdinfo --is read-only -- [ nbdkit -r null 1M ]
expect_status 2 nbdinfo --is read-only -- [ nbdkit null 1M ]

nbdinfo --json -- [ nbdkit memory 2M ] > "$tmp/out.json"
json_check "$tmp/out.json" \
  'j["exports"][0]["export-size"] == 2 * 1024 * 1024' \
  '"uri" not in j["exports"][0]'

nbdinfo --map -- [ nbdkit data "@1048576 1" size=2M ] > "$tmp/map"
cat > "$tmp/want" <<'EOT'
         0     1048576    3  hole,zero
   1048576       32768    0  data
   1081344     1015808    3  hole,zero
EOT
diff -u "$tmp/want" "$tmp/map"

nbdinfo --list --json -- [ nbdkit --filter=exportname memory 1M \
  exportname-list=explicit exportname=x exportname=y ] > "$tmp/list.json"
json_check "$tmp/list.json" \
  '[e["export-name"] for e in j["exports"]] == ["x", "y"]'

# A server that cannot start is an error, with nothing on stdout.
out=$(nbdinfo -- [ "$tmp/no-such-server" ] 2>/dev/null) || [ $? = 1 ]
[ -z "$out" ]
expect_status 1 nbdinfo -- [ "$tmp/no-such-server" ]

# No server is left running.
sleep 0.2
if pgrep -f "nbdkit data @1048576 1 size=2M" >/dev/null; then
  echo "$0: FAIL: the subprocess outlived nbdinfo"
  exit 1
fi
echo "$0: OK"
