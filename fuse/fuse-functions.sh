# fuse-functions.sh: helpers for nbdfuse's shell tests (source it).

source "${srcdir:-.}/../tests/functions.sh"

# Skip unless this machine can mount FUSE filesystems and unmount them.
requires_fuse ()
{
  if [ ! -c /dev/fuse ] || [ ! -r /dev/fuse ] || [ ! -w /dev/fuse ]; then
    echo "$0: SKIP: /dev/fuse is missing or not usable"
    exit 77
  fi
  if ! command -v fusermount3 >/dev/null; then
    echo "$0: SKIP: fusermount3 is missing"
    exit 77
  fi
}

# is_mounted DIR: DIR is a mountpoint in /proc/mounts.
is_mounted ()
{
  local dir
  dir=$(realpath "$1")
  awk -v d="$dir" '$2 == d { found = 1 } END { exit !found }' /proc/mounts
}

# start_nbdfuse MOUNTPOINT ARGS...: run "nbdfuse -P PIDFILE ARGS..." in
# the background and wait until it has mounted MOUNTPOINT.  Sets
# $nbdfuse_pid.  At exit the mount is undone whatever happened.
start_nbdfuse ()
{
  local mp=$1
  shift
  run_mount "$mp" $VG nbdfuse -P "$tmp/nbdfuse.pid" "$@"
}

# run_mount MOUNTPOINT CMD...: as start_nbdfuse, for a CMD that becomes
# "nbdfuse -P $tmp/nbdfuse.pid ..." in the end.
run_mount ()
{
  local mp=$1 pidfile="$tmp/nbdfuse.pid"
  shift
  rm -f "$pidfile"
  "$@" &
  nbdfuse_pid=$!
  cleanup_fn "kill $nbdfuse_pid 2>/dev/null"
  cleanup_fn "fusermount3 -u '$mp' 2>/dev/null"
  # Valgrind needs longer to start.
  for _ in $(seq 600); do
    [ -s "$pidfile" ] && break
    if ! kill -0 $nbdfuse_pid 2>/dev/null; then
      echo "$0: nbdfuse exited before mounting"
      exit 1
    fi
    sleep 0.1
  done
  if [ ! -s "$pidfile" ]; then
    echo "$0: nbdfuse did not write its pidfile"
    exit 1
  fi
  if ! is_mounted "$mp"; then
    echo "$0: $mp is not mounted after the pidfile was written"
    exit 1
  fi
}

# wait_nbdfuse: wait (at most a minute) for nbdfuse to exit, and set
# $status to its exit status.
wait_nbdfuse ()
{
  for _ in $(seq 600); do
    kill -0 $nbdfuse_pid 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 $nbdfuse_pid 2>/dev/null; then
    echo "$0: nbdfuse did not exit"
    exit 1
  fi
  status=0
  wait $nbdfuse_pid || status=$?
}

# stop_nbdfuse MOUNTPOINT: unmount with fusermount3 -u; nbdfuse must
# then exit with status 0.
stop_nbdfuse ()
{
  fusermount3 -u "$1"
  wait_nbdfuse
  if [ $status -ne 0 ]; then
    echo "$0: nbdfuse exited with status $status after unmounting"
    exit 1
  fi
}

# Under make check-valgrind, valgrind must run the real nbdfuse, not
# libtool's wrapper script in its place.
if [ -n "$VG" ]; then
  VG="${builddir:-.}/../libtool --mode=execute $VG"
fi

# restart_nbdkit SOCKET ARGS...: start nbdkit again on SOCKET after
# kill_nbdkit, as a server that comes back after a crash.
restart_nbdkit ()
{
  rm -f "$1" "$1.pid"
  start_nbdkit "$@"
}

# write_across_restarts MOUNTPOINT/FILE PATTERN SOCKET NBDKIT-ARGS...:
# dd PATTERN into FILE with O_DIRECT (every write goes to nbdfuse, none
# waits in the page cache) and an fsync at the end, while the nbdkit on
# SOCKET is killed and started again twice.  The server must be slow
# enough that dd is still writing at each kill.  Sets $dd_status.
write_across_restarts ()
{
  local file=$1 pattern=$2 sock=$3 dd_pid i
  shift 3
  dd if="$pattern" of="$file" bs=64k oflag=direct conv=notrunc,fsync \
     status=none 2> "$tmp/dd-err" &
  dd_pid=$!
  cleanup_fn "kill $dd_pid 2>/dev/null"
  for i in 1 2; do
    sleep 1.5
    if ! kill -0 $dd_pid 2>/dev/null; then
      echo "$0: dd finished before kill $i: the server is too fast"
      exit 1
    fi
    kill_nbdkit "$sock"
    sleep 0.5
    restart_nbdkit "$sock" "$@"
  done
  dd_status=0
  wait $dd_pid || dd_status=$?
  cat "$tmp/dd-err"
}
