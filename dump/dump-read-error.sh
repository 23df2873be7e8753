#!/bin/bash -
# dump-read-error.sh: a read or block status error from the server ends
# nbddump with exit status 1 and a message giving the offset; the lines
# before the failed request are printed, none after.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires nbdkit sh --version
requires nbdkit --filter=error null --version

# 8 MiB of "x" whose reads fail from 6 MiB on, without block status:
# the first 4 MiB request succeeds, the second fails.
cat > "$tmp/plugin.sh" <<'EOS'
#!/usr/bin/env bash
case "$1" in
  get_size) echo 8388608 ;;
  pread)
    if [ $(( $4 + $3 )) -gt 6291456 ]; then
      echo "EIO injected failure" >&2
      exit 1
    fi
    head -c "$3" /dev/zero | tr '\0' 'x' ;;
  *) exit 2 ;;
esac
EOS
chmod +x "$tmp/plugin.sh"
start_nbdkit sh sh "$tmp/plugin.sh"
if nbddump "$uri" > "$tmp/sh.out" 2> "$tmp/sh.err"; then
  echo "$0: FAIL: nbddump succeeded on a failing export"
  exit 1
else
  status=$?
fi
cat "$tmp/sh.err"
test "$status" -eq 1
grep -q '^nbddump: read failed at offset 4194304: ' "$tmp/sh.err"
# Two lines for the first 4 MiB: the first, then the splat.
test "$(cat "$tmp/sh.out")" = \
'0000000000: 78 78 78 78 78 78 78 78  78 78 78 78 78 78 78 78 |xxxxxxxxxxxxxxxx|
*'

# Every read fails (the error filter), on a sparse export.
start_nbdkit eread --filter=error data '1 @1048576 2' \
  error=EIO error-pread-rate=100%
if nbddump "$uri" > "$tmp/eread.out" 2> "$tmp/eread.err"; then
  echo "$0: FAIL: nbddump succeeded when reads fail"
  exit 1
fi
cat "$tmp/eread.err"
grep -q '^nbddump: read failed at offset 0: .*Input/output error' \
  "$tmp/eread.err"
test ! -s "$tmp/eread.out"

# Block status fails.
start_nbdkit eext --filter=error data '1 @1048576 2' \
  error=EIO error-extents-rate=100%
if nbddump "$uri" > "$tmp/eext.out" 2> "$tmp/eext.err"; then
  echo "$0: FAIL: nbddump succeeded when block status fails"
  exit 1
fi
cat "$tmp/eext.err"
grep -q '^nbddump: block status failed at offset 0: ' "$tmp/eext.err"

# Output that cannot be written.
if [ -w /dev/full ]; then
  start_nbdkit full data '1 2 3'
  if nbddump "$uri" > /dev/full 2> "$tmp/full.err"; then
    echo "$0: FAIL: nbddump succeeded writing to /dev/full"
    exit 1
  fi
  cat "$tmp/full.err"
  grep -q '^nbddump: writing the output: ' "$tmp/full.err"
fi
echo "$0: OK"
