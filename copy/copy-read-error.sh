#!/usr/bin/env bash
# copy-read-error.sh: a source whose reads fail from 2 MiB on makes
# nbdcopy exit non-zero, naming the source and an offset past 2 MiB;
# so does a local file shorter than its size.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --version
requires nbdkit sh --version
make_tmpdir
cat > "$tmp/plugin.sh" <<'EOS'
#!/usr/bin/env bash
case "$1" in
  get_size) echo 4194304 ;;
  thread_model) echo parallel ;;
  pread)
    if [ "$4" -ge 2097152 ]; then echo "EIO injected failure" >&2; exit 1; fi
    head -c "$3" /dev/zero | tr '\0' 'x' ;;
  *) exit 2 ;;
esac
EOS
chmod +x "$tmp/plugin.sh"

for mode in "" --synchronous; do
  must_fail_run "$tmp/err" -U - sh "$tmp/plugin.sh" \
    -- "$VG nbdcopy $mode \"\$uri\" $tmp/dst"
  offset=$(sed -n \
    's/^nbdcopy: nbd+unix:.*: read failed at offset \([0-9]*\): .*/\1/p' \
    "$tmp/err")
  test -n "$offset"
  test "$offset" -ge 2097152
done

# A local file that ends before its size says (sysfs files claim 4096
# bytes and hold a few): an error, also where the kernel copies.
f=/sys/devices/system/cpu/online
if [ -r "$f" ] && [ "$(stat -c %s "$f")" -gt "$(wc -c < "$f")" ]; then
  for mode in "" --synchronous "-S 0"; do
    must_fail "$tmp/err" $VG nbdcopy $mode "$f" "$tmp/dst"
    grep -q "^nbdcopy: $f: read failed at offset .*: unexpected end of file" \
      "$tmp/err"
  done
fi
