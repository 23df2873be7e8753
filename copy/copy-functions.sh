# copy-functions.sh: helpers for nbdcopy's shell tests (source it).

source "${srcdir:-.}/../tests/functions.sh"

# make_sparse_file NAME SIZE: a file of SIZE bytes with holes and a few
# runs of random data, some of them at unaligned offsets and lengths,
# one runs to the very end.
make_sparse_file ()
{
  local name=$1 size=$2
  rm -f "$name"
  truncate -s "$size" "$name"
  put_random "$name" 0 65536
  put_random "$name" $((size / 3 + 777)) 300000
  put_random "$name" $((size / 2 + 4096)) 1048576
  put_random "$name" $((size - 5000)) 5000
  # Small sizes: the runs above must not make the file longer.
  truncate -s "$size" "$name"
}

# put_random FILE OFFSET LENGTH
put_random ()
{
  head -c "$3" /dev/urandom |
    dd of="$1" bs=64k seek="$2" oflag=seek_bytes conv=notrunc \
       status=none
}

# must_fail ERR-FILE COMMAND ARGS...: COMMAND must exit non-zero; what
# it printed on standard error is kept in ERR-FILE and shown.
must_fail ()
{
  local err=$1
  shift
  if "$@" 2>"$err"; then
    cat "$err"
    echo "$0: succeeded, but should have failed: $*"
    exit 1
  fi
  cat "$err"
}

# Under make check-valgrind, valgrind must run the real nbdcopy, not
# libtool's wrapper script in its place.
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi
