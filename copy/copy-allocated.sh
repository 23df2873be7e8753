#!/usr/bin/env bash
# copy-allocated.sh: --allocated leaves no holes in a file destination;
# the default keeps them.
source "${srcdir:-.}/copy-functions.sh"
set -e
make_tmpdir
size=$((16 * 1024 * 1024))
make_sparse_file "$tmp/src" $size
# A file system without holes makes this test meaningless.
allocated=$(( $(stat -c %b "$tmp/src") * 512 ))
if [ "$allocated" -ge $size ]; then
  echo "$0: SKIP: $tmp does not keep holes"
  exit 77
fi

$VG nbdcopy --allocated "$tmp/src" "$tmp/dst"
cmp "$tmp/src" "$tmp/dst"
test $(( $(stat -c %b "$tmp/dst") * 512 )) -ge $size

# Each request read is written whole, as libnbd 1.22 does: the zero
# blocks between the two bytes of data are not split out.
requires nbdkit eval --version
requires nbdkit data --version
$VG nbdcopy --allocated --request-size=32K -- \
  [ nbdkit --exit-with-parent data data='1 @20000 2 @65535 3' ] \
  [ nbdkit --exit-with-parent eval get_size='echo 65536' \
      pwrite="cat >/dev/null; echo \$@ >> $tmp/log" \
      zero="echo \$@ >> $tmp/log" trim="echo \$@ >> $tmp/log" ]
sort -o "$tmp/log" "$tmp/log"
cat "$tmp/log"
test "$(cat "$tmp/log")" = "pwrite 32768 0
pwrite 32768 32768"
