#!/bin/bash -
# nbdkit-tests.sh: run nbdkit's own test suite (its tests/ directory)
# twice, once with our tools, Python module and library first and once
# with the system's libnbd, and print the tests whose result differs.
# nbdkit's shell tests call nbdsh, nbdinfo and nbdcopy, its Python
# snippets import nbd, and its nbd plugin and C tests link -lnbd, so
# the suite is a large user of libnbd.  Both runs use the same nbdkit
# build, made against the system's libnbd (only the environment tells
# them apart), and before each run the script checks which libnbd each
# kind of user really loads: the tools' paths, nbd.__file__, and the
# libnbd.so.0 mapped (/proc/PID/maps) by nbdsh's Python and by a
# running nbdkit with its nbd plugin.
#
# Usage: scripts/nbdkit-tests.sh [-k] [-j N] [-t 'TEST...'] NBDKIT_SRC
#   NBDKIT_SRC  an nbdkit source tree outside ours, for example
#               mkdir /tmp/nbdkit-src && git --git-dir=/work/.mirror/\
#               libguestfs+nbdkit/repo archive HEAD | tar -x -C /tmp/nbdkit-src
#               It is configured and built there unless already built.
#   -t TESTS    only these tests of nbdkit's tests/Makefile.am (names
#               as there, e.g. 'test-disconnect.sh test-eval-disconnect.sh');
#               default: the whole suite (about an hour here)
#   -j N        parallel jobs for building nbdkit (default 2)
#   -k          keep the directory with both runs' results and logs
# Environment:
#   BUILDDIR           our build tree (default: the top of this tree)
#   SYSTEM_PYTHONPATH  where the system run's python3 finds the system's
#                      nbd module (default: found with /usr/bin/python3
#                      if the python3 on PATH lacks it)
#   TEST_TIMEOUT       seconds per test (default 600)
#   NBDKIT_CONFIGURE   nbdkit's configure options (default: without the
#                      Rust and Go plugins, whose builds fetch crates
#                      and modules from the network)
#
# Needs what nbdkit's build needs, and the system's libnbd with its
# development files and Python module (Debian: libnbd-dev, libnbd-bin,
# python3-libnbd).  Exits 0 when no result differs, 1 when one does,
# 2 when the runs could not be made.  A local check, not part of make
# check.
set -euo pipefail

top="$(cd "$(dirname "$0")/.." && pwd)"
builddir="$(cd "${BUILDDIR:-$top}" && pwd)"
timeout_s="${TEST_TIMEOUT:-600}"
configure_args="${NBDKIT_CONFIGURE---disable-rust --disable-golang}"
keep=0 jobs=2 tests=""
while getopts "kj:t:" opt; do
  case "$opt" in
    k) keep=1 ;;
    j) jobs="$OPTARG" ;;
    t) tests="$OPTARG" ;;
    *) sed -n '14,23s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ]; then
  sed -n '14,23s/^# \{0,1\}//p' "$0" >&2
  exit 2
fi

die () { echo "$0: $*" >&2; exit 2; }

src="$(cd "$1" 2>/dev/null && pwd)" || die "no directory $1"
case "$src/" in
  "$top"/*|"$builddir"/*)
    die "$src is inside our tree: take nbdkit's source outside it" ;;
esac
grep -q "AC_INIT(\[nbdkit\]" "$src/configure.ac" 2>/dev/null ||
  die "$src is not an nbdkit source tree" \
      "(its configure.ac has no AC_INIT([nbdkit])"
[ -x "$builddir/run" ] && [ -f "$builddir/lib/.libs/libnbd.so.0" ] &&
  [ -x "$builddir/sh/nbdsh" ] ||
  die "build ours first (scripts/build.sh), with the Python bindings"

out="$(mktemp -d /tmp/nbdkit-tests.XXXXXX)"
# Removed at the end unless -k, or a failed build, asked to keep it.
trap '[ "$keep" = 1 ] || rm -rf "$out"' EXIT

# ---- The two environments ----

# The inherited settings with every entry of our tree taken out, so
# that the system run cannot see ours by accident.
strip_ours ()
{
  local IFS=: d r=""
  for d in $1; do
    case "$d/" in "$top"/*|"$builddir"/*) continue ;; esac
    r="${r:+$r:}$d"
  done
  printf '%s' "$r"
}
sys_path="$(strip_ours "$PATH")"
sys_ld="$(strip_ours "${LD_LIBRARY_PATH:-}")"
sys_py="$(strip_ours "${PYTHONPATH:-}")"

# The system run's python3 is the same python3 as ours (the first on
# PATH); if it does not see the system's nbd module (Debian installs
# it for /usr/bin/python3 only), show it that module and nothing else
# of /usr/lib/python3/dist-packages.
if [ -n "${SYSTEM_PYTHONPATH:-}" ]; then
  sys_py="$SYSTEM_PYTHONPATH${sys_py:+:$sys_py}"
elif ! env PATH="$sys_path" PYTHONPATH="$sys_py" LD_LIBRARY_PATH="$sys_ld" \
       python3 -c 'import nbd' 2>/dev/null; then
  if moddir="$(/usr/bin/python3 -c \
      'import nbd, os; print (os.path.dirname (nbd.__file__))' 2>/dev/null)"
  then
    mkdir "$out/system-python"
    for f in "$moddir"/nbd.py "$moddir"/nbdsh.py "$moddir"/libnbdmod*.so; do
      [ -e "$f" ] && ln -s "$f" "$out/system-python/"
    done
    sys_py="$out/system-python${sys_py:+:$sys_py}"
  fi
fi

in_system ()
{
  env PATH="$sys_path" LD_LIBRARY_PATH="$sys_ld" PYTHONPATH="$sys_py" "$@"
}

# Ours first: the tools of our build, our nbd module (python/ of the
# build, and of the source tree for nbdsh.py in a VPATH build), our
# libnbd.so.0.  Everything else as in the system run.
ours_path="$builddir/copy:$builddir/info:$builddir/dump:$builddir/fuse"
ours_path="$ours_path:$builddir/sh:$sys_path"
ours_py="$builddir/python"
[ "$top" = "$builddir" ] || ours_py="$ours_py:$top/python"
in_ours ()
{
  env PATH="$ours_path" PYTHONPATH="$ours_py${sys_py:+:$sys_py}" \
      LD_LIBRARY_PATH="$builddir/lib/.libs${sys_ld:+:$sys_ld}" "$@"
}

# ---- Build nbdkit (against the system's libnbd, in its environment) ----

build_log="$out/build.log"
if [ ! -x "$src/server/nbdkit" ] || [ ! -x "$src/nbdkit" ]; then
  echo "building nbdkit in $src (log: $build_log)"
  if ! (cd "$src" &&
        { [ -x configure ] || in_system autoreconf -i; } &&
        { [ -f Makefile ] || in_system ./configure $configure_args; } &&
        in_system make -j"$jobs") > "$build_log" 2>&1; then
    tail -30 "$build_log" >&2
    keep=1
    die "building nbdkit failed; see $build_log"
  fi
fi
# make check builds the test plugins and programs first: do it now, so
# the runs only run tests.
if ! in_system make -C "$src/tests" -j"$jobs" check TESTS= \
       >> "$build_log" 2>&1; then
  tail -30 "$build_log" >&2
  keep=1
  die "building nbdkit's tests failed; see $build_log"
fi
nbd_plugin=0
grep -q "^HAVE_LIBNBD_TRUE=''$" "$src/config.log" && nbd_plugin=1
[ "$nbd_plugin" = 1 ] ||
  echo "$0: warning: nbdkit was built without libnbd (install its" \
       "development files): its nbd plugin and C tests are left out" >&2

# The tests this build of nbdkit runs (its TESTS with the conditionals
# configure chose); a -t name outside them would not run at all.
enabled="$(printf 'print-tests:\n\t@echo $(TESTS)\n' |
           make -s -C "$src/tests" -f Makefile -f - print-tests)"
# (A case, not "printf | grep -q": grep quitting at the first match
# kills printf with SIGPIPE, which pipefail reports as a failure.)
for t in $tests; do
  case " $(echo $enabled) " in
  *" $t "*) ;;
  *) die "$t is not among the tests this nbdkit build runs" \
         "(see TESTS in $src/tests/Makefile.am)" ;;
  esac
done
python3 -c 'from packaging import version' 2>/dev/null ||
  echo "$0: warning: python3 has no 'packaging' module: nbdkit's tests" \
       "that check the libnbd version skip in both runs" >&2

# ---- Which libnbd each kind of user loads ----

# mapped_libnbd PID: the libnbd.so.0 file mapped by process PID.
mapped_libnbd ()
{
  awk '$6 ~ /\/libnbd\.so/ { print $6; exit }' "/proc/$1/maps"
}

# plugin_libnbd ENV: start nbdkit's nbd plugin (it connects only when
# a client does) and print the libnbd.so.0 the server mapped.
plugin_libnbd ()
{
  local pidfile="$out/plugin.pid" pid i
  rm -f "$pidfile" "$out/plugin.sock"
  "$@" "$src/nbdkit" -P "$pidfile" -U "$out/plugin.sock" \
    nbd socket="$out/nowhere" >/dev/null 2>&1 || return 0
  for i in $(seq 50); do
    [ -s "$pidfile" ] && break
    sleep 0.1
  done
  pid="$(cat "$pidfile" 2>/dev/null)" || return 0
  mapped_libnbd "$pid"
  # Gone before the next one binds the same socket.
  kill "$pid"
  for i in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
}

# show_env LABEL ENV: print and record what the run LABEL uses.
show_env ()
{
  local label="$1" f
  shift
  {
    for f in nbdsh nbdinfo nbdcopy; do
      echo "$f: $("$@" sh -c "command -v $f" || echo none)"
    done
    echo "nbdinfo --version:" \
         "$("$@" nbdinfo --version 2>&1 | grep '^libnbd' || true)"
    "$@" nbdsh -c '
import nbd, sys
print ("nbd.__file__:", nbd.__file__)
print ("nbdsh python:", sys.executable)
for l in open ("/proc/self/maps"):
    if "/libnbd.so" in l:
        print ("nbdsh maps:", l.split ()[-1])
        break
' 2>&1 || echo "nbdsh: failed to run"
    echo "nbd plugin maps: $(plugin_libnbd "$@" || true)"
  } > "$out/$label.env"
  sed "s/^/  $label: /" "$out/$label.env"
}

# Every user in the ours run must get ours, and no user in the
# system run may.
ours_lib="$(readlink -f "$builddir/lib/.libs/libnbd.so.0")"
show_env ours in_ours
show_env system in_system
bad=0
for want in "nbdsh: $builddir/sh/nbdsh" "nbdinfo: $builddir/info/nbdinfo" \
            "nbdcopy: $builddir/copy/nbdcopy" "nbdsh maps: $ours_lib"; do
  grep -qxF "$want" "$out/ours.env" ||
    { echo "$0: the ours run does not have $want" >&2; bad=1; }
done
grep -Eq "^nbd.__file__: ($builddir|$top)/python/" "$out/ours.env" ||
  { echo "$0: the ours run does not import our nbd module" >&2; bad=1; }
if [ "$nbd_plugin" = 1 ]; then
  grep -qxF "nbd plugin maps: $ours_lib" "$out/ours.env" ||
    { echo "$0: nbdkit's nbd plugin does not load our libnbd" >&2; bad=1; }
fi
if [ "$nbd_plugin" = 1 ] &&
   ! grep -q "^nbd plugin maps: /" "$out/system.env"; then
  echo "$0: nbdkit's nbd plugin loads no libnbd in the system run" >&2
  bad=1
fi
if grep -Eq ": ($builddir|$top)/" "$out/system.env"; then
  echo "$0: the system run uses something of ours" >&2
  bad=1
fi
grep -q "^nbd.__file__: " "$out/system.env" ||
  echo "$0: warning: nbdsh does not run in the system run (no system" \
       "nbd module for this python3?): its tests will skip there" >&2
[ "$bad" = 0 ] || die "the environments are not what they should be"

# ---- The runs ----

# run_suite LABEL ENV: run the tests in ENV and write "TEST RESULT"
# lines to $out/LABEL.results, and the tests' logs to $out/LABEL/.
run_suite ()
{
  local label="$1" trs name
  shift
  rm -f "$src"/tests/*.trs "$src"/tests/test-suite.log
  echo "running nbdkit's tests with the $label libnbd" \
       "(log: $out/$label.make.log)"
  "$@" make -C "$src/tests" -k check ${tests:+TESTS="$tests"} \
       LOG_COMPILER="timeout -k 10 $timeout_s" \
       > "$out/$label.make.log" 2>&1 </dev/null || true
  mkdir "$out/$label"
  for trs in "$src"/tests/*.trs; do
    [ -e "$trs" ] || continue
    name="${trs##*/}"
    name="${name%.trs}"
    # One word, for join: "PASS", or "FAIL,PASS" for a test of many.
    echo "$name $(sed -n 's/^:test-result: //p' "$trs" | sort -u |
                  paste -s -d, -)"
    cp "${trs%.trs}.log" "$out/$label/" 2>/dev/null || true
  done | LC_ALL=C sort > "$out/$label.results"
}

# totals LABEL: a line of counts.
totals ()
{
  awk -v l="$1" '{ n[$2]++; t++ }
    END { o = t - n["PASS"] - n["FAIL"] - n["SKIP"]
          printf "%s: %d pass, %d fail, %d skip, %d other, of %d\n",
                 l, n["PASS"], n["FAIL"], n["SKIP"], o, t }' \
    "$out/$1.results"
}

run_suite ours in_ours
run_suite system in_system
echo "----"
totals ours
totals system
LC_ALL=C join -a 1 -a 2 -e none -o 0,1.2,2.2 \
  "$out/ours.results" "$out/system.results" |
  awk '$2 != $3 { print "differs: " $1 ": ours " $2 ", system " $3 }' \
  > "$out/differs"
status=0
if [ -s "$out/differs" ]; then
  cat "$out/differs"
  status=1
else
  echo "no test result differs"
fi
if [ "$keep" = 1 ]; then
  echo "results and logs: $out (ours/, system/)"
elif [ "$status" = 1 ]; then
  echo "(run with -k to keep the logs)"
fi
exit "$status"
