# functions.sh: helpers for the shell tests (source it).

# Skip with status 77 and a reason when a program is missing.
requires ()
{
  if ! "$@" >/dev/null 2>&1; then
    echo "$0: SKIP: test needs: $*"
    exit 77
  fi
}

# Run a command at exit, in reverse order of registration.  One
# argument is a line of shell, run with eval ("kill $pid 2>/dev/null");
# several are a command and its words, each kept whole: joined into one
# line, 'sh -c "kill \$(cat FILE)"' ran sh -c kill, which kills nothing,
# and left servers running after the test.
_cleanup_cmds=()
cleanup_fn ()
{
  local line=$1
  [ $# -eq 1 ] || line=$(printf '%q ' "$@")
  _cleanup_cmds=("$line" "${_cleanup_cmds[@]}")
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

# use_nbdkit_1_48: from here on, "nbdkit" in the test (start_nbdkit,
# requires, direct calls) is nbdkit 1.48 (or later) from the libnbd
# 1.24 peer directory (scripts/peer-libnbd-1.24.sh), or the test is
# skipped.
# For the tests that kill or stop a server, or a client in the middle
# of a write: Debian 12's nbdkit 1.32.5 can abort then
# (raw_send_socket: Assertion 'sock >= 0'), and a test using it tests
# nbdkit's crash, not ours.  Programs under test that start nbdkit
# themselves ([ nbdkit ... ]) still find the system's on $PATH.
nbdkit_1_48=
use_nbdkit_1_48 ()
{
  local d=${LIBNBD_PEER_1_24_DIR:-/var/cache/libnbd-peers/debian-sid}
  local v
  v=$("$d/nbdkit" --version 2>/dev/null) || v=
  case $v in
    "nbdkit 1.4"[89].* | "nbdkit 1."[5-9][0-9].*) ;;
    *)
      echo "$0: SKIP: test needs nbdkit 1.48 in $d/nbdkit" \
           "(made by scripts/peer-libnbd-1.24.sh; set LIBNBD_PEER_1_24_DIR" \
           "for another directory): Debian 12's nbdkit 1.32.5 can abort" \
           "when a client dies in the middle of a write"
      exit 77
      ;;
  esac
  nbdkit_1_48=$d/nbdkit
  nbdkit ()
  {
    "$nbdkit_1_48" "$@"
  }
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
  # Not through use_nbdkit_1_48's function: $! is then nbdkit itself,
  # and no subshell reports its death.
  "${nbdkit_1_48:-nbdkit}" -U "$sock" -P "$pidfile" -f "$@" &
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
