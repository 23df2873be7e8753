#!/bin/bash -
# go-checks.sh: gofmt and go vet are clean, both examples copy an
# export exactly (checksum of their output against the file served),
# and refuse sizes and counts they cannot work with, without hanging.
set -u
if [ "${GOLANG:-no}" = no ]; then
  echo "1..0 # SKIP go not found by configure (apt-get install golang-go)"
  exit 0
fi
if ! command -v nbdkit >/dev/null; then
  echo "1..0 # SKIP nbdkit not found"
  exit 0
fi
. "$srcdir/go-env.sh"
echo "1..7"
n=0
result () {
  n=$((n+1))
  if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

unformatted=$(cd "$srcdir" && gofmt -l . 2>&1)
printf '%s\n' "$unformatted" | sed 's/^/# /'
result "$([ -z "$unformatted" ]; echo $?)" "gofmt -l finds nothing"
vet=$(cd "$srcdir" && "$GOLANG" vet ./... 2>&1)
rc=$?
printf '%s\n' "$vet" | sed 's/^/# /'
result "$rc" "go vet ./..."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# An odd size, so the last request is short.
head -c $((24*1024*1024 + 4097)) /dev/urandom > "$tmp/disk"
want=$(sha256sum < "$tmp/disk")
ex="$abs_builddir/examples"
copy () {
  got=$(nbdkit -U - file "$tmp/disk" --run "$* \"\$uri\"" | sha256sum)
  [ "$got" = "$want" ]
}
copy "$ex/simple_copy/simple_copy"
result $? "simple_copy output matches the export"
copy "$ex/aio_copy/aio_copy" -requests 8 -request-size 65536
result $? "aio_copy output matches the export"
copy "$ex/aio_copy/aio_copy" -pread-initialize
result $? "aio_copy -pread-initialize output matches the export"

# refused ARGS...: the example exits 2 saying what it wants, within
# seconds (no hang, no out-of-memory crash).
refused () {
  nbdkit -U - file "$tmp/disk" \
    --run "timeout 20 $* \"\$uri\" >/dev/null 2>\"$tmp/err\""
  rc=$?
  sed 's/^/# /' "$tmp/err"
  [ "$rc" = 2 ] && grep -q 'must be' "$tmp/err"
}
refused "$ex/aio_copy/aio_copy" -requests 0 &&
  refused "$ex/aio_copy/aio_copy" -request-size 0 &&
  refused "$ex/aio_copy/aio_copy" -request-size $((1 << 40))
result $? "aio_copy refuses 0 requests and request sizes 0 and 1 TiB"
refused "$ex/simple_copy/simple_copy" -buffer-size 0 &&
  refused "$ex/simple_copy/simple_copy" -buffer-size $((1 << 40))
result $? "simple_copy refuses buffer sizes 0 and 1 TiB"
