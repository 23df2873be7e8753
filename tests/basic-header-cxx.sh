#!/usr/bin/env bash
# basic-header-cxx.sh: test <libnbd.h> compiles in C++ (-Wall -pedantic).

. "${srcdir:-.}/functions.sh"
set -e
set -x

requires g++ --version

builddir="${builddir:-.}"
srcdir="${srcdir:-.}"

tmp="$(mktemp -d /tmp/basic-header-cxx-XXXXXX)"
cleanup_fn rm -rf "$tmp"

cat > "$tmp/test.cpp" <<'END'
#include <libnbd.h>
#include <libnbd.h>
#include <cstdlib>

static int
debug_fn (void *user_data, const char *context, const char *msg)
{
  return 0;
}

int
main ()
{
  struct nbd_handle *h = nbd_create ();
  nbd_debug_callback cb = { debug_fn, NULL, NULL };
  nbd_set_debug_callback (h, cb);
  nbd_close (h);
  return EXIT_SUCCESS;
}
END

# The generated header is in the build tree (or the source tree); never
# let the compiler fall back to a system <libnbd.h>.
inc=
for d in "$builddir/../include" "$srcdir/../include"; do
  if [ -f "$d/libnbd.h" ]; then inc="$d"; break; fi
done
if [ -z "$inc" ]; then
  echo "$0: FAIL: no libnbd.h in $builddir/../include or $srcdir/../include"
  exit 1
fi

for std in c++11 c++17; do
  g++ -std=$std -fsyntax-only -Wall -Wextra -pedantic -Werror \
      -Wno-unused-parameter -I"$inc" "$tmp/test.cpp"
done
