#!/usr/bin/env bash
# copy-zero-flush-error.sh: a destination whose zero requests fail, or
# whose flush fails, makes nbdcopy exit non-zero and say which request
# failed, in both copy loops.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit --filter=error memory --version
requires nbdkit sh --version
make_tmpdir
make_sparse_file "$tmp/src" $((4 * 1024 * 1024))

# names ERR-FILE WHAT: the message names WHAT and an offset.
names ()
{
  grep -q "^nbdcopy: nbd+unix:.*: $2 failed at offset [0-9]*: .*Input/output" \
    "$1"
}

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

for mode in "" --synchronous; do
  must_fail_run "$tmp/err" -U - --filter=error memory size=4M \
    error-zero=EIO error-zero-rate=100% \
    -- "$VG nbdcopy $mode $tmp/src \"\$uri\""
  names "$tmp/err" zero

  must_fail_run "$tmp/err" -U - sh "$tmp/flush.sh" \
    -- "$VG nbdcopy $mode --flush $tmp/src \"\$uri\""
  names "$tmp/err" flush
done
