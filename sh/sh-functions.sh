# sh-functions.sh: helpers for nbdsh's shell tests (source it).

source "${srcdir:-.}/../tests/functions.sh"
source "${srcdir:-.}/../python/sanitizer-preload.sh"

# In a sanitizer build python and nbdsh get the runtimes preloaded;
# nothing else does (the servers the tests start would inherit them).
if [ -n "$py_preload" ]; then
  python_under_test () { LD_PRELOAD="$py_preload" "${PYTHON:-python3}" "$@"; }
  nbdsh () { LD_PRELOAD="$py_preload" command nbdsh "$@"; }
else
  python_under_test () { "${PYTHON:-python3}" "$@"; }
fi

# Skip unless $PYTHON imports the nbd module of this build (python/ of
# the build or source tree), never a copy installed on the system.
requires_nbd_module ()
{
  local file
  if ! file=$(python_under_test -c 'import nbd; print(nbd.__file__)' \
                2>/dev/null); then
    echo "$0: SKIP: ${PYTHON:-python3} cannot import nbd:" \
         "the Python bindings (python/) are not built"
    exit 77
  fi
  case "$file" in
    "$abs_top_builddir"/python/*|"$abs_top_srcdir"/python/*) ;;
    *)
      echo "$0: SKIP: the nbd module found is $file, not this build's"
      exit 77
      ;;
  esac
}

# expect FILE TEXT: FILE holds exactly TEXT (and a final newline).
expect ()
{
  if [ "$(cat "$1")" != "$2" ]; then
    echo "$0: $1 is:"
    cat "$1"
    echo "$0: expected:"
    echo "$2"
    exit 1
  fi
}

# Every test needs the bindings and a scratch directory.
requires_nbd_module
make_tmpdir
