#!/bin/bash -
# replay-corpus.sh: every seed and every input the fuzzers ever broke us
# with, through the same workloads, with the plain build.
set -euo pipefail
shopt -s nullglob
files=("$srcdir"/corpus/* "$srcdir"/regressions/*)
tls=("$srcdir"/tls-corpus/* "$srcdir"/tls-regressions/*)
$VG "$builddir"/replay "${files[@]}" -t "${tls[@]}"
