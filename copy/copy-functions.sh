# copy-functions.sh: helpers for nbdcopy's shell tests (source it).

source "${srcdir:-.}/../tests/functions.sh"

# make_sparse_file NAME SIZE: a file of SIZE bytes with holes and a few
# runs of random data, some of them at unaligned offsets and lengths,
# one runs to the very end.
make_sparse_file ()
{
  local name=$1 size=$2
  rm -f "$name"
  truncate -s "$size" "$name"
  put_random "$name" 0 65536
  put_random "$name" $((size / 3 + 777)) 300000
  put_random "$name" $((size / 2 + 4096)) 1048576
  put_random "$name" $((size - 5000)) 5000
  # Small sizes: the runs above must not make the file longer.
  truncate -s "$size" "$name"
}

# put_random FILE OFFSET LENGTH
put_random ()
{
  head -c "$3" /dev/urandom |
    dd of="$1" bs=64k seek="$2" oflag=seek_bytes conv=notrunc \
       status=none
}

# must_fail ERR-FILE COMMAND ARGS...: COMMAND must exit non-zero; what
# it printed on standard error is kept in ERR-FILE and shown.
must_fail ()
{
  local err=$1
  shift
  if "$@" 2>"$err"; then
    cat "$err"
    echo "$0: succeeded, but should have failed: $*"
    exit 1
  fi
  cat "$err"
}

# must_fail_run ERR-FILE NBDKIT-ARGS... -- COMMAND: nbdkit serves with
# NBDKIT-ARGS and runs COMMAND (a shell string, $uri set), which must
# fail.  Only COMMAND's standard error goes to ERR-FILE: nbdkit's
# threads write their messages to the same stream in pieces, and one
# landed inside a line of nbdcopy's (seen in CI).
must_fail_run ()
{
  local err=$1 args=()
  shift
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  shift
  must_fail "$err.nbdkit" nbdkit "${args[@]}" --run "$1 2>'$err'"
  cat "$err"
}

# Under make check-valgrind, valgrind must run the real nbdcopy, not
# libtool's wrapper script in its place.
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi

# restart_nbdkit SOCKET ARGS...: SIGKILL the nbdkit on SOCKET, as a
# crash would end it, leave the socket dead for a moment (so that a
# client trying to reconnect meets a refusal and backs off) and start a
# new nbdkit there with ARGS.
restart_nbdkit ()
{
  local sock=$1
  shift
  kill_nbdkit "$sock"
  rm -f "$sock" "$sock.pid"
  sleep 0.5
  start_nbdkit "$sock" "$@"
}

# start_copy ERR-FILE PROGRESS-FILE ARGS...: nbdcopy ARGS in the
# background, its stderr in ERR-FILE and its --progress=3 lines in
# PROGRESS-FILE; $copy is its pid, killed at exit if still running.
start_copy ()
{
  local err=$1 progress=$2
  shift 2
  : > "$progress"
  $VG nbdcopy --progress=3 "$@" 2>"$err" 3>"$progress" &
  copy=$!
  cleanup_fn "kill $copy 2>/dev/null"
}

# finish_copy ERR-FILE: wait for the nbdcopy start_copy started, show
# its stderr (without the library's debug lines -v adds, megabytes of
# them), and set $copy_status to its exit status.
finish_copy ()
{
  copy_status=0
  wait "$copy" || copy_status=$?
  grep -v '^libnbd: debug: ' "$1" || :
  echo "$0: nbdcopy exited with status $copy_status"
}

# wait_progress PROGRESS-FILE PCT: wait until the copy start_copy
# started has written a progress line of at least PCT percent.  Fails
# if the copy ended first (then a kill would not test a running copy)
# or after a minute.
wait_progress ()
{
  local file=$1 pct=$2 last
  for _ in $(seq 600); do
    if ! kill -0 "$copy" 2>/dev/null; then
      echo "$0: nbdcopy ended before reaching $pct%"
      exit 1
    fi
    last=$(tail -n1 "$file")
    last=${last%/100}
    if [ -n "$last" ] && [ "$last" -ge "$pct" ]; then
      if [ "$last" -ge 100 ]; then
        echo "$0: nbdcopy finished before a fault at $pct%"
        exit 1
      fi
      return 0
    fi
    sleep 0.1
  done
  echo "$0: nbdcopy did not reach $pct% in a minute"
  exit 1
}

# reconnect_summary ERR-FILE: check the summary line nbdcopy prints
# after reconnecting and set $reconnects and $replayed from it.
reconnect_summary ()
{
  local line re
  re='^nbdcopy: \([0-9]*\) reconnects*, waited [0-9.]* s, '
  re+='replayed \([0-9]*\) bytes$'
  line=$(grep "$re" "$1" | tail -n1)
  if [ -z "$line" ]; then
    echo "$0: no reconnect summary on stderr"
    exit 1
  fi
  reconnects=$(sed "s/$re/\1/" <<<"$line")
  replayed=$(sed "s/$re/\2/" <<<"$line")
}

# checkpoint_durable CK: the bytes the --checkpoint file CK records as
# durable (0 while it does not exist yet).
checkpoint_durable ()
{
  awk '$1 == "durable" { n += $3 - $2 } END { print n + 0 }' "$1" \
    2>/dev/null || echo 0
}

# kill_copy_once_durable PID OUT CK BYTES TOTAL [TEST...]: wait, 15 s
# at most, until the checkpoint file CK of the background copy PID
# records BYTES durable and the command TEST (if any) succeeds; then
# SIGKILL the copy, reap it, show its output file OUT, and fail the
# test unless the copy was killed half-way (BYTES to TOTAL durable).
kill_copy_once_durable ()
{
  local pid=$1 out=$2 ck=$3 bytes=$4 total=$5 d
  shift 5
  for _ in $(seq 300); do
    [ "$(checkpoint_durable "$ck")" -ge "$bytes" ] && "${@:-true}" && break
    sleep 0.05
  done
  kill -KILL "$pid"
  wait "$pid" || :
  cat "$out"
  d=$(checkpoint_durable "$ck")
  echo "killed with $d bytes durable"
  if [ "$d" -lt "$bytes" ] || [ "$d" -ge "$total" ]; then
    echo "$0: the copy should have been killed half-way, not at $d bytes"
    exit 1
  fi
}

# restart_file_server SOCK FILE [RATE]: (re)start nbdkit serving FILE
# on SOCK, through the rate filter at RATE if given; an earlier server
# on SOCK is killed first.
restart_file_server ()
{
  local sock=$1 file=$2 args=(file "$2")
  [ -z "${3-}" ] || args=(--filter=rate file "$file" rate="$3")
  [ ! -s "$sock.pid" ] || kill_nbdkit "$sock"
  start_nbdkit "$sock" "${args[@]}"
}
