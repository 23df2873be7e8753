#!/usr/bin/env bash
# copy-blkhash.sh: --blkhash agrees with a Python implementation of the
# algorithm, for several digests and block sizes, sparse and dense
# images, files, NBD, pipes and any number of threads.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires python3 --version
requires nbdkit --version
make_tmpdir
ref="python3 ${srcdir:-.}/blkhash-reference.py"

make_sparse_file "$tmp/sparse" $((9 * 1024 * 1024 + 4321))
head -c $((3 * 1024 * 1024 + 17)) /dev/urandom > "$tmp/dense"
truncate -s 1M "$tmp/zero"
: > "$tmp/empty"

check ()
{
  local file=$1 spec=$2 digest=$3 bs=$4 expect got
  shift 4
  expect=$($ref "$file" "$digest" "$bs")
  got=$($VG nbdcopy "$@" --blkhash=$spec "$file" null:)
  if [ "$got" != "$expect" ]; then
    echo "$0: $file --blkhash=$spec $*: got $got, expected $expect"
    exit 1
  fi
}

for f in sparse dense zero empty; do
  check "$tmp/$f" "" sha256 65536
  check "$tmp/$f" sha256/4k sha256 4096
  check "$tmp/$f" md5/1M md5 1048576
  check "$tmp/$f" sha1/64k sha1 65536
  check "$tmp/$f" sha512/256k sha512 262144 -T 1
  check "$tmp/$f" sha256/64k sha256 65536 --synchronous
  check "$tmp/$f" sha256/100000 sha256 100000 --no-extents
done

# Default digest, and --blkhash-file while copying to a file.
expect=$($ref "$tmp/sparse" sha256 65536)
test "$($VG nbdcopy --blkhash "$tmp/sparse" null:)" = "$expect"
$VG nbdcopy --blkhash-file="$tmp/hash" "$tmp/sparse" "$tmp/copy"
test "$(cat "$tmp/hash")" = "$expect"
cmp "$tmp/sparse" "$tmp/copy"

# From a pipe, and from NBD with extents and several connections.
test "$(cat "$tmp/sparse" | $VG nbdcopy --blkhash - null:)" = "$expect"
got=$(nbdkit -U - file "$tmp/sparse" \
        --run "$VG nbdcopy -C 4 -T 4 --blkhash \"\$uri\" null:")
test "$got" = "$expect"

# Small block sizes, down to 1 byte, on small and odd-sized images:
# many blocks in one request, a short last block, a block larger than
# the image.  First the published vector of the algorithm.
printf hello > "$tmp/hello"
test "$($VG nbdcopy --blkhash=md5/4 "$tmp/hello" null:)" = \
     8262896de34125dec173722c920e8bd0
make_sparse_file "$tmp/small" $((100 * 1024 + 3))
head -c 4097 /dev/urandom > "$tmp/odd"
for bs in 1 2 4 64 512; do
  for f in hello small odd empty; do
    check "$tmp/$f" md5/$bs md5 $bs
  done
  check "$tmp/odd" sha256/$bs sha256 $bs --synchronous
done
expect=$($ref "$tmp/small" sha1 2)
got=$(nbdkit -U - file "$tmp/small" \
        --run "$VG nbdcopy -C 2 -T 2 --blkhash=sha1/2 \"\$uri\" null:")
test "$got" = "$expect"
