#!/bin/bash -
# info-text.sh: the default output, line by line, for known exports.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires file --version

start_nbdkit mem memory 1M
nbdinfo "$uri" > "$tmp/out"
cat > "$tmp/want" <<EOT
protocol: newstyle-fixed without TLS, using structured packets
export="":
	export-size: 1048576 (1M)
	content: data
	uri: $uri
	contexts:
		base:allocation
	is_rotational: false
	is_read_only: false
	can_block_status_payload: false
	can_cache: true
	can_df: true
	can_fast_zero: true
	can_flush: true
	can_fua: true
	can_multi_conn: true
	can_trim: true
	can_zero: true
EOT
diff -u "$tmp/want" "$tmp/out"

# A description, block sizes with and without a unit, an export name
# that needs quoting, no structured replies.
start_nbdkit ro -r --no-sr --filter=blocksize-policy --filter=exportname \
  null size=1536 blocksize-minimum=1 blocksize-preferred=4096 \
  blocksize-maximum=64M exportdesc=fixed:'my "disk"'
ro='nbd+unix:///a%22b?socket='"$tmp/ro.sock"
nbdinfo --no-content "$ro" > "$tmp/out"
cat > "$tmp/want" <<EOT
protocol: newstyle-fixed without TLS, using simple packets
export="a\"b":
	description: my "disk"
	export-size: 1536
	uri: nbd+unix:///a%22b?socket=$tmp/ro.sock
	contexts:
		base:allocation
	is_rotational: false
	is_read_only: true
	can_block_status_payload: false
	can_cache: true
	can_df: false
	can_fast_zero: false
	can_flush: true
	can_fua: false
	can_multi_conn: true
	can_trim: false
	can_zero: false
	block_size_minimum: 1
	block_size_preferred: 4096 (4K)
	block_size_maximum: 67108864 (64M)
EOT
diff -u "$tmp/want" "$tmp/out"

# --colour adds ANSI escapes and nothing else; the default (stdout is
# a file here) has none.
nbdinfo --colour --no-content "$ro" > "$tmp/colour"
grep -q $'\033\\[' "$tmp/colour"
sed $'s/\033\\[[0-9;]*m//g' "$tmp/colour" | diff -u "$tmp/out" -
! grep -q $'\033' "$tmp/out"
echo "$0: OK"
