# sanitizer-preload.sh: in a sanitizer build (PY_SANITIZE holds the
# -fsanitize flags), the extension and libnbd.so need the sanitizer
# runtimes loaded first, and python is not built with them.  Source it:
# it sets $py_preload to the runtimes to preload (empty in a plain
# build), or skips the test (77) when one is missing.
py_preload=
case "${PY_SANITIZE:-}" in
  *thread*)
    # ThreadSanitizer sees only the synchronisation of instrumented
    # code and of the pthread calls it intercepts; python is not
    # instrumented, so its reports could not be trusted.  The threaded
    # C tests cover the library in that build (.ci/run).
    echo "$0: skipped: python is not instrumented for ThreadSanitizer"
    exit 77 ;;
esac
case "${PY_SANITIZE:-}" in
  *address*) py_preload="$("${CC:-cc}" -print-file-name=libasan.so)" ;;
esac
case "${PY_SANITIZE:-}" in
  *undefined*)
    py_preload="$py_preload${py_preload:+ }$("${CC:-cc}" -print-file-name=libubsan.so)"
    ;;
esac
for _f in $py_preload; do
  if [ ! -f "$_f" ]; then
    echo "$0: skipped: no sanitizer runtime $_f to preload into python"
    exit 77
  fi
done
if [ -n "$py_preload" ]; then
  # Python itself leaks by design at exit, and is not instrumented.
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
