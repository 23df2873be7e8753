#!/usr/bin/env bash
# test-errors.sh: a read the server fails reaches the reader as EIO (the
# errno the server sent), never as data; reads elsewhere still work,
# and so do writes the server accepts, while failed writes fail.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires_fuse
requires nbdkit --version
requires nbdkit sh --version
requires python3 --version
make_tmpdir
# 4 MiB; reads touching [1 MiB, 1 MiB + 64 KiB) fail with EIO, writes
# touching [2 MiB, 2 MiB + 64 KiB) with EPERM.
cat > "$tmp/plugin.sh" <<'EOS'
#!/usr/bin/env bash
overlaps () { [ "$2" -lt $(($3 + 65536)) ] && [ $(($2 + $1)) -gt "$3" ]; }
case "$1" in
  get_size) echo 4194304 ;;
  thread_model) echo parallel ;;
  can_write) exit 0 ;;
  pread)
    if overlaps "$3" "$4" 1048576; then echo "EIO bad block" >&2; exit 1; fi
    head -c "$3" /dev/zero | tr '\0' 'x' ;;
  pwrite)
    cat > /dev/null
    if overlaps "$3" "$4" 2097152; then echo "EPERM refused" >&2; exit 1; fi ;;
  *) exit 2 ;;
esac
EOS
chmod +x "$tmp/plugin.sh"
start_nbdkit "$tmp/sock" sh "$tmp/plugin.sh"
mkdir "$tmp/mp"

start_nbdfuse "$tmp/mp" "$tmp/mp" --unix "$tmp/sock" 2> "$tmp/nbdfuse.err"
python3 - "$tmp/mp/nbd" <<'EOP'
import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_DIRECT)
def fails(what, e_want, f, *args):
    try:
        f(*args)
    except OSError as e:
        assert e.errno == e_want, (what, e)
    else:
        raise SystemExit(what + " succeeded")
buf = bytearray(b"\0" * 65536)
mm = memoryview(buf)
# O_DIRECT: every read goes to the server, none from the page cache.
assert os.preadv(fd, [mm[:4096]], 0) == 4096 and buf[:4096] == b"x" * 4096
fails("read of the bad block", errno.EIO, os.preadv, fd, [mm[:4096]], 1048576)
fails("read across the bad block", errno.EIO, os.preadv, fd, [mm],
      1048576 - 32768)
assert os.preadv(fd, [mm[:4096]], 3 << 20) == 4096
os.pwrite(fd, b"y" * 4096, 0)
fails("refused write", errno.EPERM, os.pwrite, fd, b"y" * 4096, 2 << 20)
os.close(fd)
EOP
# Buffered, as most programs read.
if dd if="$tmp/mp/nbd" of=/dev/null bs=64k skip=16 count=1 \
      2> "$tmp/err"; then
  echo "$0: dd read a bad block"
  exit 1
fi
grep 'Input/output error' "$tmp/err"
dd if="$tmp/mp/nbd" of=/dev/null bs=64k skip=40 count=8 status=none
stop_nbdfuse "$tmp/mp"
cat "$tmp/nbdfuse.err"
grep 'nbdfuse: read of .* bytes at offset .*: Input/output error' \
  "$tmp/nbdfuse.err"

# nbdkit's error filter failing every read with EIO, and a server that
# sent ENOSPC for writes: errno reaches the caller as the server said.
if nbdkit --filter=error null --version >/dev/null 2>&1; then
  start_nbdfuse "$tmp/mp" "$tmp/mp" \
    [ nbdkit --exit-with-parent --filter=error memory 1M \
             error-pread=EIO error-pread-rate=100% \
             error-pwrite=ENOSPC error-pwrite-rate=100% ] 2>/dev/null
  if cat "$tmp/mp/nbd" > /dev/null 2> "$tmp/err"; then
    echo "$0: cat read through the error filter"
    exit 1
  fi
  grep 'Input/output error' "$tmp/err"
  if printf x | dd of="$tmp/mp/nbd" conv=notrunc,fsync 2> "$tmp/err"; then
    echo "$0: dd wrote through the error filter"
    exit 1
  fi
  grep 'No space left on device' "$tmp/err"
  stop_nbdfuse "$tmp/mp"
fi
