# Bash completion for libnbd's tools: nbdcopy, nbddiscard, nbddump,
# nbdfuse, nbdinfo, nbdsh and nbdzero.  Installed once under each
# tool's name, where bash-completion loads it the first time that tool
# is completed.
#
# Options come from the tool itself (--long-options, --short-options),
# so they never fall behind it; other words complete as file names.

_libnbd_tool ()
{
  local tool=$1 cur=${COMP_WORDS[COMP_CWORD]} opts

  COMPREPLY=()
  case "$cur" in
    --*) opts=$("$tool" --long-options 2>/dev/null) ;;
    -*) opts="$("$tool" --short-options 2>/dev/null)
$("$tool" --long-options 2>/dev/null)" ;;
    *) return 0 ;;            # -o default: file names
  esac
  # Words, one per line: an option never holds a space.
  mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
}

complete -o default -F _libnbd_tool nbdcopy nbddiscard nbddump nbdfuse \
  nbdinfo nbdsh nbdzero
