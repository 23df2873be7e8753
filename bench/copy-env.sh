# copy-env.sh: the nbdcopy commands compared by the copy benchmarks
# (sourced).  "ours" is this tree's nbdcopy on this tree's libnbd,
# without the malloc perturbation ./run adds; "debian" is
# /usr/bin/nbdcopy (libnbd-bin) on the system libnbd.
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="${BUILDDIR:-$(cd "$bench_dir/.." && pwd)}"
OURS="env -u MALLOC_PERTURB_ -u MALLOC_CHECK_ LD_LIBRARY_PATH=$top/lib/.libs $top/copy/.libs/nbdcopy"
DEBIAN="env -u LD_LIBRARY_PATH -u LD_PRELOAD /usr/bin/nbdcopy"
RUN="python3 $bench_dir/copy-run.py"
ROUNDS="${ROUNDS:-5}"

for t in nbdkit /usr/bin/nbdcopy qemu-img /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "$0: needs $t" >&2; exit 1; }
done
[ -x "$top/copy/.libs/nbdcopy" ] || { echo "$0: build the tree first" >&2; exit 1; }
# Each side must map the library it claims to.
LD_LIBRARY_PATH=$top/lib/.libs ldd "$top/copy/.libs/nbdcopy" |
  grep "$top/lib/.libs/libnbd.so.0" >/dev/null || { echo "$0: ours does not map our libnbd" >&2; exit 1; }
env -u LD_LIBRARY_PATH ldd /usr/bin/nbdcopy | grep "$top" >/dev/null &&
  { echo "$0: Debian's nbdcopy maps our libnbd" >&2; exit 1; }
echo "ours:   $top/copy/.libs/nbdcopy on $top/lib/.libs/libnbd.so.0"
echo "debian: /usr/bin/nbdcopy on $(env -u LD_LIBRARY_PATH ldd /usr/bin/nbdcopy | awk '/libnbd/ {print $3}')"
