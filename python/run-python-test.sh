#!/bin/bash -
# run-python-test.sh: run one python/t test with the build's module.
# Usage (from python/Makefile.am): run-python-test.sh t/NNN-name.py
# A test that starts python itself runs $NBD_TEST_PYTHON -c CODE, which
# is this script, so the child gets the same sanitizer runtimes.
set -e
export NBD_TEST_PYTHON="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

if [ "${LIBNBD_VALGRIND:-}" = 1 ]; then
  echo "$0: skipped under valgrind: the interpreter's own noise and" \
       "cost would swamp the extension's"
  exit 77
fi

source "$(dirname "$0")/sanitizer-preload.sh"
if [ -n "$py_preload" ]; then
  # Only python gets the runtimes: the servers the test starts would
  # inherit them (nbdkit can then deadlock in its exit handlers), so
  # the variable goes from the environment once python is running.
  LD_PRELOAD="$py_preload${LD_PRELOAD:+ $LD_PRELOAD}" \
    exec "${PYTHON:-python3}" -c '
import os, runpy, sys
os.environ.pop("LD_PRELOAD", None)
sys.argv = sys.argv[1:]
if sys.argv[0] == "-c":
    code = sys.argv.pop(1)
    exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
else:
    runpy.run_path(sys.argv[0], run_name="__main__")' "$@"
fi

exec "${PYTHON:-python3}" "$@"
