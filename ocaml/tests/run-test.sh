#!/bin/bash -
# run-test.sh: run one test of the OCaml bindings (a native program,
# the byte code one, or a shell script), or skip it saying why.
set -u
t=$1
if ! nbdkit --version >/dev/null 2>&1; then
  echo "$0: skipped: nbdkit is needed"
  exit 77
fi
case "${OCAML_SANITIZE:-}" in
  *thread*)
    # ThreadSanitizer sees only the synchronisation of instrumented
    # code, and the OCaml runtime is not instrumented: its reports
    # could not be trusted.
    echo "$0: skipped: the OCaml runtime is not instrumented for ThreadSanitizer"
    exit 77 ;;
esac
# The OCaml runtime (4.14 and older) never frees the alternate signal
# stack it sets up at startup.
# And each thread of the threads library gets an alternate signal
# stack of OCaml's, which AddressSanitizer then fails to unmap as its
# own when the thread ends: let OCaml alone set them up.
if [ -n "${OCAML_SANITIZE:-}" ]; then
  export LSAN_OPTIONS="suppressions=$srcdir/tests/lsan-suppressions${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  export ASAN_OPTIONS="use_sigaltstack=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
case "$t" in
  *.bc)
    # ocamlrun is not built with the sanitizers: in a sanitizer build
    # the runtimes would have to come first in a program that is not
    # ours, so the byte code test is left to the plain build.
    if [ -n "${OCAML_SANITIZE:-}" ]; then
      echo "$0: skipped: byte code (ocamlrun) in a sanitizer build"
      exit 77
    fi
    export CAML_LD_LIBRARY_PATH="$abs_builddir${CAML_LD_LIBRARY_PATH:+:$CAML_LD_LIBRARY_PATH}"
    exec ocamlrun "$t" ;;
  *.sh) exec bash "$t" ;;
  *) exec $VG "$t" ;;
esac
