#!/bin/bash -
# discard-man.sh: nbddiscard.1 and nbdzero.1 render without groff
# warnings and document every option each program accepts.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"
requires groff --version

check_man_page "$builddir/nbddiscard.1" nbddiscard
check_man_page "$builddir/nbdzero.1" nbdzero
grep -q '^nbddiscard, nbdzero \\- ' "$builddir/nbdzero.1"
grep -q '^\.TH nbdzero 1 ' "$builddir/nbdzero.1"
echo "$0: OK"
