#!/bin/bash -
# dump-man.sh: nbddump.1 renders without groff warnings and documents
# every option nbddump accepts.
set -euo pipefail
source "${srcdir:-.}/dump-functions.sh"
requires groff --version

check_man_page "$builddir/nbddump.1" nbddump
echo "$0: OK"
