#!/usr/bin/env bash
# copy-blkhash-vs-124.sh: --blkhash prints what libnbd 1.24.4's nbdcopy
# prints, with the same exit status, for every digest and a range of
# block sizes, on files with data, holes and zeroes, odd and zero sizes,
# an nbdkit sparse-random export and a pipe; and the same error for
# every bad --blkhash.
source "${srcdir:-.}/copy-functions.sh"
set -e
peer=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
if [ ! -x "$peer/nbdcopy" ]; then
  echo "$0: SKIP: libnbd 1.24.4's nbdcopy is not in $peer" \
       "(scripts/peer-libnbd-1.24.sh makes it)"
  exit 77
fi
requires nbdkit sparse-random --version
make_tmpdir

make_sparse_file "$tmp/sparse" $((5 * 1024 * 1024 + 4321))
head -c $((1024 * 1024 + 17)) /dev/urandom > "$tmp/dense"
truncate -s 1M "$tmp/zero"
: > "$tmp/empty"
printf hello > "$tmp/hello"

# same ARGS...: both nbdcopys, the same stdout, stderr and status.
same ()
{
  local a b
  a=$("$peer/nbdcopy" "$@" 2>&1; echo "status $?")
  b=$($VG nbdcopy "$@" 2>&1; echo "status $?")
  if [ "$a" != "$b" ]; then
    echo "$0: nbdcopy $*:"
    echo "1.24.4: $a"
    echo "ours:   $b"
    exit 1
  fi
}

for f in sparse dense zero empty hello; do
  same --blkhash "$tmp/$f" null:
  for d in md5 sha1 sha256 sha512; do
    for bs in "" /1 /4s /4k /64k /1M; do
      same --blkhash=$d$bs "$tmp/$f" null:
    done
  done
done
same --blkhash=SHA256/64M "$tmp/sparse" null:
same --blkhash=Md5/2G "$tmp/sparse" null:
same --blkhash=sha1/+8k "$tmp/sparse" null:
same --blkhash=md5/4k --blkhash "$tmp/sparse" null:
same --blkhash=md5/4k --blkhash= "$tmp/sparse" null:
same --blkhash=md5/4k --blkhash=sha1 "$tmp/sparse" null:
same --synchronous --blkhash=sha512/16k "$tmp/sparse" null:
same --blkhash --blkhash-file="$tmp/nodir/x" "$tmp/hello" null:

# The hash file, and --blkhash-file without --blkhash.
"$peer/nbdcopy" --blkhash=md5/1k --blkhash-file="$tmp/h1" "$tmp/sparse" null:
$VG nbdcopy --blkhash=md5/1k --blkhash-file="$tmp/h2" "$tmp/sparse" null:
cmp "$tmp/h1" "$tmp/h2"
same --blkhash-file="$tmp/h3" "$tmp/sparse" null:
test ! -e "$tmp/h3"

# A pipe, and an NBD export with holes.
a=$("$peer/nbdcopy" --blkhash=sha1/32k - null: < "$tmp/sparse")
b=$($VG nbdcopy --blkhash=sha1/32k - null: < "$tmp/sparse")
test "$a" = "$b"
for spec in sha256 md5/4k sha512/1M; do
  a=$(nbdkit -U - sparse-random size=200M seed=42 \
             --run "'$peer/nbdcopy' --blkhash=$spec \"\$uri\" null:")
  b=$(nbdkit -U - sparse-random size=200M seed=42 \
             --run "$VG nbdcopy --blkhash=$spec \"\$uri\" null:")
  test -n "$a"
  test "$a" = "$b"
done

# Every way to get --blkhash wrong.
for bad in sha224 sha384 foo /4k / foo/x sha256/ sha256/0 sha256/3 \
           sha256/4G sha256/1E sha256/7E sha256/16E sha256/-1 sha256/x \
           md5/4k/5 md5/4KiB sha256/0x100 sha256/9223372036854775808; do
  same --blkhash=$bad "$tmp/hello" null:
done
