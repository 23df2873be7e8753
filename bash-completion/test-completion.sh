#!/usr/bin/env bash
# test-completion.sh: the completion script loads in a plain bash,
# registers itself for each tool, and completes the tool's long options
# (as the tool lists them with --long-options) and short options; other
# words are left to file name completion.
source "${srcdir:-.}/../tests/functions.sh"
# In a sanitizer build nbdsh (python) needs the runtimes preloaded,
# here and in the bash that completes it (which runs nbdsh itself).
source "${srcdir:-.}/../python/sanitizer-preload.sh"
if [ -n "$py_preload" ]; then
  nbdsh () { LD_PRELOAD="$py_preload" command nbdsh "$@"; }
fi
set -e
make_tmpdir
script=$(cd "${srcdir:-.}" && pwd)/nbd-tools.bash

# complete_word TOOL WORD: the completions of WORD as TOOL's first
# argument, one per line, in a fresh bash that loaded only the script
# (what bash-completion does when TOOL is completed first).
complete_word ()
{
  local preload=
  if [ "$1" = nbdsh ]; then preload="$py_preload"; fi
  env ${preload:+LD_PRELOAD="$preload"} bash --norc --noprofile -c '
    source "$1" || exit 1
    complete -p "$2" | grep -q " -F _libnbd_tool " || exit 2
    COMP_WORDS=("$2" "$3")
    COMP_CWORD=1
    _libnbd_tool "$2" "$3" "$2"
    for w in "${COMPREPLY[@]}"; do echo "$w"; done
  ' complete "$script" "$@"
}

# A long option of each tool, with a prefix that no other option of
# the tool has, and a short option.
declare -A long=(
  [nbdcopy]=--destination-is-zero [nbddump]=--limit [nbdinfo]=--json
  [nbdsh]=--base-allocation [nbdfuse]=--fuse-help
  [nbddiscard]=--fast-zero [nbdzero]=--check
)
declare -A prefix=(
  [nbdcopy]=--destination- [nbddump]=--lim [nbdinfo]=--js
  [nbdsh]=--base [nbdfuse]=--fuse
  [nbddiscard]=--fa [nbdzero]=--ch
)
for tool in ${TOOLS:-nbdcopy nbddump nbdinfo nbdsh nbdfuse nbddiscard nbdzero}; do
  "$tool" --long-options | grep -x -- "${long[$tool]}" > /dev/null
  complete_word $tool "${prefix[$tool]}" > "$tmp/out"
  if [ "$(cat "$tmp/out")" != "${long[$tool]}" ]; then
    cat "$tmp/out"
    echo "$0: $tool ${prefix[$tool]}<TAB> did not give ${long[$tool]}"
    exit 1
  fi
  # "--" offers every long option, and only those.
  complete_word $tool -- | sort > "$tmp/all"
  "$tool" --long-options | sort | cmp - "$tmp/all"
  # "-" offers the short options too.
  complete_word $tool - > "$tmp/dash"
  grep -qx -- -V "$tmp/dash"
  grep -qx -- "${long[$tool]}" "$tmp/dash"
  # A word that is not an option: nothing, bash then completes files.
  complete_word $tool "$tmp" > "$tmp/none"
  test ! -s "$tmp/none"
  echo "$tool: ok"
done
