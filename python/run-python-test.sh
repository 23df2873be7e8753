#!/bin/bash -
# run-python-test.sh: run one python/t test with the build's module.
# Usage (from python/Makefile.am): run-python-test.sh t/NNN-name.py
set -e

if [ "${LIBNBD_VALGRIND:-}" = 1 ]; then
  echo "$0: skipped under valgrind: the interpreter's own noise and" \
       "cost would swamp the extension's"
  exit 77
fi

# A sanitizer build's extension and libnbd.so need the sanitizer
# runtimes loaded first, and python is not built with them.
if [ -n "${PY_SANITIZE:-}" ]; then
  preload=
  case "$PY_SANITIZE" in
    *address*) preload="$("${CC:-cc}" -print-file-name=libasan.so)" ;;
  esac
  case "$PY_SANITIZE" in
    *undefined*)
      preload="$preload${preload:+ }$("${CC:-cc}" -print-file-name=libubsan.so)"
      ;;
  esac
  for f in $preload; do
    if [ ! -f "$f" ]; then
      echo "$0: skipped: no sanitizer runtime $f to preload into python"
      exit 77
    fi
  done
  # Python itself leaks by design at exit, and is not instrumented.
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  # Only python gets the runtimes: the servers the test starts would
  # inherit them (nbdkit can then deadlock in its exit handlers), so
  # the variable goes from the environment once python is running.
  LD_PRELOAD="$preload${LD_PRELOAD:+ $LD_PRELOAD}" \
    exec "${PYTHON:-python3}" -c '
import os, runpy, sys
os.environ.pop("LD_PRELOAD", None)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")' "$@"
fi

exec "${PYTHON:-python3}" "$@"
