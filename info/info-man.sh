#!/bin/bash -
# info-man.sh: nbdinfo.1 renders without groff warnings and documents
# every option nbdinfo accepts.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

requires groff --version

check_man_page "${srcdir:-.}/nbdinfo.1" nbdinfo
echo "$0: OK"
