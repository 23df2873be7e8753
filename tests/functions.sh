# functions.sh: helpers for the shell tests (source it).

# Skip with status 77 and a reason when a program is missing.
requires ()
{
  if ! "$@" >/dev/null 2>&1; then
    echo "$0: SKIP: test needs: $*"
    exit 77
  fi
}

# Run a command at exit, in reverse order of registration.
_cleanup_cmds=()
cleanup_fn ()
{
  _cleanup_cmds=("$*" "${_cleanup_cmds[@]}")
}
_run_cleanups ()
{
  local status=$?
  local c
  for c in "${_cleanup_cmds[@]}"; do eval "$c" || :; done
  exit $status
}
trap _run_cleanups EXIT INT TERM
