#!/usr/bin/env bash
# test-man.sh: nbdfuse.1 renders without groff warnings and documents
# every option and mode nbdfuse accepts.
source "${srcdir:-.}/fuse-functions.sh"
set -e
requires groff --version
make_tmpdir

check_man_page "${builddir:-.}/nbdfuse.1" nbdfuse \
  --command --socket-activation --fd --tcp --unix --vsock --uri
