#!/usr/bin/env bash
# test-readonly.sh: with -r, or when the export is read-only, the file
# is read-only (mode 0444), opening it for writing fails with EACCES,
# and reads still work.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit file --version
requires python3 --version
make_tmpdir
head -c 1048576 /dev/urandom > "$tmp/disk"
cp "$tmp/disk" "$tmp/orig"
start_nbdkit "$tmp/rw.sock" file "$tmp/disk"
start_nbdkit "$tmp/ro.sock" -r file "$tmp/disk"
mkdir "$tmp/mp"

check_readonly ()
{
  test "$(stat -c '%a' "$tmp/mp/nbd")" = 444
  cmp "$tmp/orig" "$tmp/mp/nbd"
  python3 - "$tmp/mp/nbd" <<'EOP'
import errno, os, sys
for flags in (os.O_WRONLY, os.O_RDWR):
    try:
        os.open(sys.argv[1], flags)
    except OSError as e:
        assert e.errno == errno.EACCES, e
    else:
        raise SystemExit("opened a read-only file for writing")
EOP
  if head -c 4096 /dev/zero |
       dd of="$tmp/mp/nbd" conv=notrunc 2>/dev/null; then
    echo "$0: dd wrote to a read-only file"
    exit 1
  fi
}

start_nbdfuse "$tmp/mp" --readonly "$tmp/mp" --unix "$tmp/rw.sock"
check_readonly
stop_nbdfuse "$tmp/mp"

start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/ro.sock"
check_readonly
stop_nbdfuse "$tmp/mp"

# Nothing reached the server's file.
cmp "$tmp/orig" "$tmp/disk"
