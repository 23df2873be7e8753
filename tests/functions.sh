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

# make_tmpdir: a fresh temporary directory $tmp, removed at exit.
make_tmpdir ()
{
  tmp=$(mktemp -d "/tmp/${0##*/}.XXXXXX")
  cleanup_fn rm -rf "$tmp"
}

# wait_for_file FILE WHAT: wait up to 10 s for FILE (a pid file, a port
# file) to be written, else fail the test saying WHAT did not start.
wait_for_file ()
{
  for _ in $(seq 100); do
    [ -s "$1" ] && return 0
    sleep 0.1
  done
  echo "$0: $2 did not start"
  exit 1
}

# start_nbdkit SOCKET ARGS...: a background nbdkit on a Unix socket,
# killed at exit; $uri is set to its NBD URI.
start_nbdkit ()
{
  local sock=$1 pidfile
  shift
  pidfile="$sock.pid"
  # A pid file or socket left by an earlier server (nbdkit 1.32 leaves
  # its socket when killed) must not pass for the new one.
  rm -f "$pidfile" "$sock"
  nbdkit -U "$sock" -P "$pidfile" -f "$@" &
  wait_for_file "$pidfile" nbdkit
  cleanup_fn kill "$(cat "$pidfile")"
  uri="nbd+unix:///?socket=$sock"
}

# kill_nbdkit SOCKET: SIGKILL the nbdkit start_nbdkit started on
# SOCKET, as a crash would end it, and wait until it is gone.
kill_nbdkit ()
{
  local pid
  pid=$(cat "$1.pid")
  kill -KILL "$pid"
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "$0: nbdkit $pid did not die"
  exit 1
}

# check_man_page PAGE PROGRAM [NAME...]: PAGE renders without groff
# warnings and names every option PROGRAM lists with --long-options
# and --short-options, and every NAME besides.  Needs $tmp.
check_man_page ()
{
  local page=$1 program=$2 o
  shift 2
  LC_ALL=C.UTF-8 groff -man -ww -z -t "$page" 2> "$tmp/warnings"
  if [ -s "$tmp/warnings" ]; then
    cat "$tmp/warnings"
    exit 1
  fi
  # Option names in the page are written \-\-name.
  sed 's/\\-/-/g; s/\\f[BIR]//g' "$page" > "$tmp/text"
  for o in $("$program" --long-options) $("$program" --short-options) "$@"
  do
    if ! grep -q -- "$o\b" "$tmp/text"; then
      echo "$0: FAIL: $o is not in ${page##*/}"
      exit 1
    fi
  done
}
