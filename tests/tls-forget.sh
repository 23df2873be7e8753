#!/bin/bash -
# tls-forget.sh: export details learnt in plaintext do not survive
# NBD_OPT_STARTTLS (see tls-forget.c), against nbdkit --tls=on.
set -euo pipefail
source "${srcdir:-.}/functions.sh"
source "${srcdir:-.}/tls-functions.sh"

requires nbdkit --version
tls_tmpdir
tls_make_psk
timeout 60 $VG "${builddir:-.}/tls-forget" "$tls_dir/keys.psk" -- \
  nbdkit -s --exit-with-parent --tls=on --tls-psk="$tls_dir/keys.psk" \
  memory 1M
