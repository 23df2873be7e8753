#!/bin/bash -
# info-json.sh: --json output parses as JSON and holds the facts the
# server gave: protocol, flags, sizes, block sizes, description.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires file --version
requires python3 --version

start_nbdkit mem memory 1M
nbdinfo --json "$uri" > "$tmp/mem.json"
json_check "$tmp/mem.json" \
  'j["protocol"] == "newstyle-fixed"' \
  'j["TLS"] is False and j["structured"] is True' \
  'j["extended"] is False' \
  'len(j["exports"]) == 1' \
  'list(j) == ["protocol", "TLS", "structured", "extended", "exports"]'
json_check "$tmp/mem.json" \
  'j["exports"][0]["export-name"] == ""' \
  'j["exports"][0]["export-size"] == 1048576' \
  'j["exports"][0]["export-size-str"] == "1M"' \
  'j["exports"][0]["content"] == "data"' \
  'j["exports"][0]["uri"] == "'"$uri"'"' \
  'j["exports"][0]["contexts"] == ["base:allocation"]' \
  'j["exports"][0]["is_read_only"] is False' \
  'j["exports"][0]["is_rotational"] is False' \
  'j["exports"][0]["can_trim"] is True' \
  'j["exports"][0]["can_zero"] is True' \
  'j["exports"][0]["can_block_status_payload"] is False' \
  '"description" not in j["exports"][0]' \
  '"block_size_minimum" not in j["exports"][0]'

# Read-only, an odd size, block sizes, and a description that needs
# every kind of JSON escaping.
desc=$(printf 'a "quoted" \\ back\tslash\001')
start_nbdkit ro -r --filter=blocksize-policy --filter=exportname \
  null size=1234567 blocksize-minimum=512 blocksize-preferred=4096 \
  blocksize-maximum=1M exportdesc=fixed:"$desc"
nbdinfo --json "$uri" > "$tmp/ro.json"
json_check "$tmp/ro.json" \
  'j["exports"][0]["is_read_only"] is True' \
  'j["exports"][0]["can_trim"] is False' \
  'j["exports"][0]["export-size"] == 1234567' \
  'j["exports"][0]["export-size-str"] == "1234567"' \
  'j["exports"][0]["block_size_minimum"] == 512' \
  'j["exports"][0]["block_size_preferred"] == 4096' \
  'j["exports"][0]["block_size_maximum"] == 1048576' \
  'j["exports"][0]["description"] == "a \"quoted\" \\ back\tslash\x01"' \
  'list(j["exports"][0])[-2:] == ["export-size", "export-size-str"]'

# --no-content drops the content member only.
nbdinfo --json --no-content "$uri" > "$tmp/nc.json"
json_check "$tmp/nc.json" '"content" not in j["exports"][0]' \
  'j["exports"][0]["export-size"] == 1234567'

# A 1 TiB export, for the human size.
start_nbdkit big null 1T
nbdinfo --json "$uri" > "$tmp/big.json"
json_check "$tmp/big.json" \
  'j["exports"][0]["export-size"] == 1 << 40' \
  'j["exports"][0]["export-size-str"] == "1T"'
echo "$0: OK"
