#!/bin/bash -
# generator-rejects.sh: the generator refuses a table or a state machine
# that contradicts itself, and says what is wrong, instead of writing
# broken code.
set -euo pipefail
source "${srcdir:-.}/functions.sh"

requires ocamlfind ocamlopt -version

gen="${srcdir:-.}/../generator"
# The generator's modules in link order, as generator/Makefile.am lists them.
sources=$(sed -n '/^sources = /,/^$/p' "$gen/Makefile.am" |
            grep -o '[A-Za-z_]*\.ml')
d=$(mktemp -d)
cleanup_fn rm -rf "$d"

# try NAME FILE PERL-SUBSTITUTION EXPECTED-MESSAGE: copy the generator,
# break FILE with the substitution, build and run it; it must fail and
# print the expected message.
try ()
{
  local name="$1" file="$2" subst="$3" expect="$4" t="$d/$1"

  mkdir -p "$t/generator" "$t/include" "$t/lib" "$t/docs"
  cp "$gen"/*.ml "$gen"/states-*.c "$t/generator/"
  perl -0pi -e "$subst" "$t/generator/$file"
  if cmp -s "$gen/$file" "$t/generator/$file"; then
    echo "$0: $name: the substitution changed nothing"
    exit 1
  fi
  (cd "$t/generator" &&
   ocamlfind ocamlopt -package str,unix -linkpkg -w -a \
     $sources -o generator) >/dev/null
  if (cd "$t" && ./generator/generator) > "$t/out" 2>&1; then
    echo "$0: $name: the generator accepted a broken input"
    exit 1
  fi
  if ! grep -q -- "$expect" "$t/out"; then
    echo "$0: $name: expected \"$expect\", got:"
    cat "$t/out"
    exit 1
  fi
  if [ -e "$t/lib/api.c" ]; then
    echo "$0: $name: lib/api.c was written anyway"
    exit 1
  fi
  echo "$name: refused: $(tail -1 "$t/out")"
}

# A call listed twice.
try duplicate-call API.ml \
  's/(let handle_calls = \[\n)/$1  "set_debug", { default_call with args = [ Bool "debug" ]; shortdesc = "x"; longdesc = "x"; first_version = (1, 0) };\n/' \
  'set_debug'
# A see-also naming a call that does not exist.
try bad-see-also API.ml \
  's/see_also = \[ "set_handle_name"; "set_debug_callback" \]/see_also = [ "no_such_call" ]/' \
  'no_such_call'
# A flag subset naming a flag the set does not have.
try bad-flag API.ml \
  's/Some \[ "FUA"; "PAYLOAD_LEN" \]/Some [ "FUA"; "NO_SUCH_FLAG" ]/' \
  'NO_SUCH_FLAG'
# A hand-written call whose see-also names a call that does not exist.
try bad-handwritten-see-also API.ml \
  's/hw_see_also = \[ "create"; "shutdown" \]/hw_see_also = [ "no_such_hw" ]/' \
  'no_such_hw'
# A state body moving to a state that does not exist.
try unknown-state states-magic.c \
  's/SET_NEXT_STATE \(%CHECK_MAGIC\)/SET_NEXT_STATE (%NO_SUCH_STATE)/' \
  'NO_SUCH_STATE'
# Entering a group other than through its START.
try group-entry states-magic.c \
  's/SET_NEXT_STATE \(%\.NEWSTYLE\)/SET_NEXT_STATE (%.NEWSTYLE.RECV_GFLAGS)/' \
  'other than through START'
# A state with no body.
try missing-body states-magic.c \
  's/ OLDSTYLE\.CHECK:.*?(?=\} \/\* END)//s' \
  'has no body'
echo "$0: OK"
