#!/usr/bin/env bash
# copy-reconnect-durable-end.sh: nbdcopy --reconnect or --checkpoint,
# without --flush, ends with its last writes durable: a destination
# nbdkit behind a writeback cache (which keeps written data in memory
# until a flush) SIGKILLed right after nbdcopy exits 0 loses nothing.
# Also when the server is killed during that last flush: nbdcopy
# reconnects, copies the unflushed ranges again and flushes again.  A
# plain copy without --flush (libnbd 1.22's behaviour) must lose data
# in the same scenario, or the test would prove nothing.  A last flush
# that fails makes nbdcopy fail.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit file --version
requires nbdkit --filter=cache --filter=delay null --version
requires nbdkit sh --version
make_tmpdir
size=$((64 * 1024 * 1024))
head -c $size /dev/urandom > "$tmp/src"
start_nbdkit "$tmp/src.sock" -r file "$tmp/src"
src_uri=$uri

# The cache filter keeps its blocks in an unlinked temporary file,
# gone with the process; the delay filter under it slows the writes
# a flush makes to the file (a flush of the whole copy takes seconds),
# not the client's writes, which only reach the cache.
dst=(--filter=cache --filter=delay file "$tmp/dst" cache=writeback)
fresh_destination ()
{
  rm -f "$tmp/dst"
  truncate -s $size "$tmp/dst"
  start_nbdkit "$tmp/dst.sock" "${dst[@]}" "$@"
  dst_uri=$uri
}

# killed_equal: kill the destination server as a crash would, start it
# again and read the export back (with --no-extents: the cache filter
# reports the file's holes as extents); succeed if it equals the
# source.
killed_equal ()
{
  kill_nbdkit "$tmp/dst.sock"
  start_nbdkit "$tmp/dst.sock" "${dst[@]}"
  rm -f "$tmp/back"
  nbdcopy --no-extents "$uri" "$tmp/back"
  kill_nbdkit "$tmp/dst.sock"
  cmp -s "$tmp/src" "$tmp/back"
}

# The control: without --reconnect and --flush nothing flushes, and
# the kill loses what the cache held.
fresh_destination
$VG nbdcopy "$src_uri" "$dst_uri"
if killed_equal; then
  echo "$0: FAIL: equal after a copy that did not flush: the kill" \
       "lost nothing, so this test cannot tell"
  exit 1
fi

for opts in "--reconnect=30" "--checkpoint=$tmp/ckpt" \
            "--reconnect=30 --checkpoint=$tmp/ckpt" "--reconnect=30 -C 1"; do
  echo "$0: nbdcopy $opts"
  fresh_destination
  # shellcheck disable=SC2086
  $VG nbdcopy $opts "$src_uri" "$dst_uri"
  if ! killed_equal; then
    echo "$0: FAIL: nbdcopy $opts exited 0 but the destination lost" \
         "data when its server was killed right after"
    exit 1
  fi
done

# The server killed during the last flush: nbdcopy reaches 100% with
# one connection and then flushes for several seconds.
fresh_destination delay-write=5ms
start_copy "$tmp/err" "$tmp/progress" -C 1 --reconnect=60 \
  --reconnect-delay=0.1:1 "$src_uri" "$dst_uri"
for _ in $(seq 600); do
  if ! kill -0 "$copy" 2>/dev/null; then
    echo "$0: nbdcopy ended before its last flush could be interrupted"
    exit 1
  fi
  [ "$(tail -n1 "$tmp/progress")" != 100/100 ] || break
  sleep 0.1
done
test "$(tail -n1 "$tmp/progress")" = 100/100
sleep 0.5
kill -0 "$copy"
kill_nbdkit "$tmp/dst.sock"
sleep 0.5
start_nbdkit "$tmp/dst.sock" "${dst[@]}"
finish_copy "$tmp/err"
test $copy_status -eq 0
reconnect_summary "$tmp/err"
test "$reconnects" -ge 1
test "$replayed" -gt 0
killed_equal

# A destination whose flush fails (the copy is too short for a
# checkpoint before the end): the copy fails, naming the flush.
cat > "$tmp/flush.sh" <<'EOS'
#!/usr/bin/env bash
case "$1" in
  get_size) echo 4194304 ;;
  can_write|can_flush) exit 0 ;;
  pwrite) cat >/dev/null ;;
  pread) head -c "$3" /dev/zero ;;
  flush) echo "EIO injected failure" >&2; exit 1 ;;
  *) exit 2 ;;
esac
EOS
chmod +x "$tmp/flush.sh"
start_nbdkit "$tmp/bad.sock" sh "$tmp/flush.sh"
head -c 4M "$tmp/src" > "$tmp/src4"
rm -f "$tmp/ckpt"
for opts in "--reconnect=30" "--checkpoint=$tmp/ckpt"; do
  # shellcheck disable=SC2086
  must_fail "$tmp/err" $VG nbdcopy $opts "$tmp/src4" "$uri"
  grep -q "^nbdcopy: nbd+unix:.*: flush failed at offset 0: .*Input/output" \
    "$tmp/err"
done
