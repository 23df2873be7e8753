#!/usr/bin/env bash
# copy-blkhash.sh: --blkhash agrees with a Python implementation of the
# algorithm, for every digest and block sizes from 1 byte to 2G,
# sparse and dense images, files, NBD, pipes and any number of threads.
# Blocks larger than a request (over 32M) are hashed in pieces.
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
  check "$tmp/$f" sha256/128k sha256 131072 --no-extents
done

# Default digest, and --blkhash-file while copying to a file.
expect=$($ref "$tmp/sparse" sha256 65536)
test "$($VG nbdcopy --blkhash "$tmp/sparse" null:)" = "$expect"
$VG nbdcopy --blkhash --blkhash-file="$tmp/hash" "$tmp/sparse" "$tmp/copy"
test "$(cat "$tmp/hash")" = "$expect"
cmp "$tmp/sparse" "$tmp/copy"
# As in 1.24, --blkhash-file alone computes nothing and writes no file,
# --blkhash alone goes back to sha256/64k, a digest alone keeps the
# block size.
test -z "$($VG nbdcopy --blkhash-file="$tmp/hash2" "$tmp/sparse" null:)"
test ! -e "$tmp/hash2"
test "$($VG nbdcopy --blkhash=md5/4k --blkhash "$tmp/sparse" null:)" = \
     "$expect"
test "$($VG nbdcopy --blkhash=md5/4k --blkhash=SHA1 "$tmp/sparse" null:)" = \
     "$($ref "$tmp/sparse" sha1 4096)"

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

# Blocks larger than a request: whole zero blocks, blocks of holes and
# data, a short last block, a block larger than the image; in order
# (a pipe, --synchronous) and out of order (connections reading small
# requests from a slowed server, so that replies overtake each other).
rm -f "$tmp/big"
truncate -s $((150 * 1024 * 1024 + 12345)) "$tmp/big"
put_random "$tmp/big" $((64 * 1024 * 1024 - 1000)) 3000000
put_random "$tmp/big" $((150 * 1024 * 1024)) 12345
for spec in md5/64M sha1/128M sha512/2G; do
  digest=${spec%/*}
  case $spec in
    */64M) bs=$((64 << 20)) ;; */128M) bs=$((128 << 20)) ;;
    */2G) bs=$((2 << 30)) ;;
  esac
  check "$tmp/big" $spec $digest $bs
  check "$tmp/big" $spec $digest $bs --synchronous
  expect=$($ref "$tmp/big" $digest $bs)
  test "$($VG nbdcopy --blkhash=$spec - null: < "$tmp/big")" = "$expect"
done
expect=$($ref "$tmp/big" md5 $((64 << 20)))
got=$(nbdkit -U - --filter=delay file "$tmp/big" rdelay=1ms \
        --run "$VG nbdcopy -C 4 -T 4 --request-size=64k \
               --blkhash=md5/64M \"\$uri\" null:")
test "$got" = "$expect"
