#!/bin/bash -
# api-coverage.sh: every exported call is used by at least one test.
# Prints the map from each call to the tests that use it (the table
# tests/README.md points to), then fails naming any call no test uses.
set -euo pipefail

srcdir="${srcdir:-.}"
top="$srcdir/.."
syms="${builddir:-.}/../lib/libnbd.syms"

# Test sources by the way they name a call nbd_x_y: C tests and
# scripts here and under copy/, info/ and fuzz/ by that name, Go as
# h.XY, OCaml as NBD.x_y and Rust as h.x_y, where they exist.
files () {
  local f
  for f in "$@"; do [ -f "$f" ] && echo "$f"; done
  return 0
}
mapfile -t c_src < <(files "$srcdir"/*.c "$srcdir"/*.h "$srcdir"/*.sh \
                       "$top"/copy/*.sh "$top"/info/*.sh "$top"/fuzz/*.c)
mapfile -t go_src < <(files "$top"/golang/*_test.go)
mapfile -t ml_src < <(files "$top"/ocaml/tests/*.ml)
mapfile -t rs_src < <(files "$top"/rust/tests/*.rs "$top"/rust/tests/*/*.rs)

# Go names the calls without the nbd_ prefix, in CamelCase.
camel ()
{
  sed -e 's/^nbd_//' -e 's/_\([a-z0-9]\)/\U\1/g' -e 's/^\([a-z]\)/\U\1/' \
    <<< "$1"
}

# The base names of the files (after the pattern) matching the
# extended regexp $1.
users_of ()
{
  local re=$1; shift
  [ $# -gt 0 ] || return 0
  grep -lE -e "$re" "$@" 2>/dev/null | xargs -r -n1 basename | sort -u |
    tr '\n' ' ' || :
}

calls=$(grep -o '\bnbd_[a-z0-9_]*' "$syms" | LC_ALL=C sort -u)
missing=()
declare -A found=([c]=0 [go]=0 [ml]=0 [rs]=0)
for c in $calls; do
  short=${c#nbd_}
  u_c=$(users_of "(^|[^a-z0-9_])$c\b" "${c_src[@]}")
  u_go=$(users_of "\.$(camel "$c")\b" "${go_src[@]}")
  u_ml=$(users_of "\bNBD\.$short\b" "${ml_src[@]}")
  u_rs=$(users_of "(\.|::)$short\b" "${rs_src[@]}")
  for l in c go ml rs; do
    v="u_$l"
    [ -z "${!v}" ] || found[$l]=$((found[$l] + 1))
  done
  users="$u_c$u_go$u_ml$u_rs"
  printf '%-45s %s\n' "$c" "${users:-(none)}"
  [ -n "$users" ] || missing+=("$c")
done

n=$(wc -w <<< "$calls")
if [ "$n" -lt 160 ]; then
  echo "$0: only $n calls in $syms, expected 160"
  exit 1
fi
# A language with tests but no call found in them means its pattern
# above no longer matches how those tests name the calls.
for l in c go ml rs; do
  v="${l}_src[@]"
  files=(${!v+"${!v}"})
  echo "$0: ${found[$l]} calls used by the ${#files[@]} $l test sources"
  if [ ${#files[@]} -gt 0 ] && [ "${found[$l]}" -eq 0 ]; then
    echo "$0: no call found in the $l tests: is the pattern right?"
    exit 1
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$0: ${#missing[@]} of $n calls are used by no test: ${missing[*]}"
  exit 1
fi
echo "$0: all $n calls are used by at least one test"
