#!/bin/bash -
# replay-corpus.sh: every seed and every input the fuzzer ever broke us
# with, through the same workload, with the plain build.
set -euo pipefail
shopt -s nullglob
files=("$srcdir"/corpus/* "$srcdir"/regressions/*)
$VG "$builddir"/replay "${files[@]}"
