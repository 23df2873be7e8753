#!/usr/bin/env bash
# test-options.sh: --help, --version, the option lists, and bad command
# lines, each of which fails with a message before anything is mounted.
source "${srcdir:-.}/fuse-functions.sh"
set -e
make_tmpdir

$VG nbdfuse --help > "$tmp/out"
grep -q '^  nbdfuse MOUNTPOINT\[/FILENAME\] --unix SOCKET$' "$tmp/out"
$VG nbdfuse -V > "$tmp/out"
grep -q '^nbdfuse [0-9]' "$tmp/out"
grep -q '^libnbd [0-9]' "$tmp/out"
$VG nbdfuse --fuse-help > "$tmp/out"
grep -q 'allow_other' "$tmp/out"

# The same lists as libnbd 1.22's nbdfuse (for bash completion), with
# the --reconnect options added.
$VG nbdfuse --short-options | tr '\n' ' ' > "$tmp/out"
test "$(cat "$tmp/out")" = "-C -d -o -P -r -s -v -V "
$VG nbdfuse --long-options | tr '\n' ' ' > "$tmp/out"
test "$(cat "$tmp/out")" = "--fuse-help --help --connections --no-replay \
--pidfile --pid-file --readonly --read-only --reconnect --reconnect-buffer \
--reconnect-delay --request-timeout --verbose --version "

mkdir "$tmp/mp"
sock="$tmp/none.sock"

# bad_args MESSAGE ARGS...: nbdfuse ARGS fails, saying MESSAGE.
bad_args ()
{
  local msg=$1 status=0
  shift
  $VG nbdfuse "$@" 2> "$tmp/err" || status=$?
  cat "$tmp/err"
  if [ $status -ne 1 ]; then
    echo "$0: nbdfuse $* exited with $status, not 1"
    exit 1
  fi
  if ! grep -q -- "$msg" "$tmp/err"; then
    echo "$0: nbdfuse $*: expected the message: $msg"
    exit 1
  fi
  if is_mounted "$tmp/mp"; then
    echo "$0: nbdfuse $* left a mount behind"
    exit 1
  fi
}

bad_args 'a mountpoint and a server are needed'
bad_args 'a mountpoint and a server are needed' "$tmp/mp"
bad_args 'must be a directory' "$tmp/nonexistent/file" \
  "nbd+unix:///?socket=$sock"
bad_args 'must be a directory' "$tmp/mp/nbd/.." "nbd+unix:///?socket=$sock"
bad_args 'must be a directory' nonexistent-here "nbd+unix:///?socket=$sock"
bad_args 'takes 1 argument, not 0' "$tmp/mp/" --unix
bad_args 'unknown mode: --bogus' "$tmp/mp" --bogus x
bad_args "closing ']'" "$tmp/mp" [ nbdkit memory 1M
bad_args "closing ']'" "$tmp/mp" [ ]
bad_args 'a command is needed' "$tmp/mp" --command
bad_args 'takes 2 arguments, not 1' "$tmp/mp" --tcp localhost
bad_args 'takes 1 argument, not 2' "$tmp/mp" --unix "$sock" extra
bad_args 'takes 1 argument, not 2' "$tmp/mp" "nbd://localhost" extra
bad_args 'could not parse file descriptor' "$tmp/mp" --fd x
bad_args 'could not parse vsock port' "$tmp/mp" --vsock 1 99999999999
bad_args 'must be a number from 1 to 1024' -C 0 "$tmp/mp" --unix "$sock"
bad_args 'must be a number from 1 to 1024' -C 1x "$tmp/mp" --unix "$sock"
bad_args 'invalid option' -X "$tmp/mp" --unix "$sock"
bad_args 'unrecognized option' --bogus "$tmp/mp" --unix "$sock"
bad_args 'nbd_connect_unix' "$tmp/mp" --unix "$sock"
bad_args 'nbd_connect_uri' "$tmp/mp" "nbd+unix:///?socket=$sock"
bad_args 'nbd_connect_uri' "$tmp/mp" "http://example.com/"

# --reconnect: bad values, options that need it, and the modes that
# cannot dial the server again.
bad_args '--reconnect: expected a number of seconds' \
  --reconnect=x "$tmp/mp" --unix "$sock"
bad_args '--reconnect: expected a number of seconds' \
  --reconnect=-1 "$tmp/mp" --unix "$sock"
bad_args '--reconnect: must be at most 86400 seconds' \
  --reconnect=100000 "$tmp/mp" --unix "$sock"
bad_args '--request-timeout: expected a number of seconds' \
  --reconnect=5 --request-timeout=1s "$tmp/mp" --unix "$sock"
bad_args '--reconnect-delay: expected MIN:MAX' \
  --reconnect=5 --reconnect-delay=1 "$tmp/mp" --unix "$sock"
bad_args '--reconnect-delay: needs 0 < MIN <= MAX' \
  --reconnect=5 --reconnect-delay=2:1 "$tmp/mp" --unix "$sock"
bad_args '--reconnect-buffer: must be at least 1M' \
  --reconnect=5 --reconnect-buffer=4k "$tmp/mp" --unix "$sock"
bad_args '--reconnect-buffer: ' \
  --reconnect=5 --reconnect-buffer=lots "$tmp/mp" --unix "$sock"
bad_args '--reconnect-delay needs --reconnect' \
  --reconnect-delay=1:2 "$tmp/mp" --unix "$sock"
bad_args '--reconnect-buffer needs --reconnect' \
  --reconnect-buffer=8M "$tmp/mp" --unix "$sock"
bad_args '--no-replay needs --reconnect' --no-replay "$tmp/mp" --unix "$sock"
for mode in "--fd 0" "--command nbdkit memory 1M" \
            "--socket-activation nbdkit memory 1M" "[ nbdkit memory 1M ]"; do
  # shellcheck disable=SC2086
  bad_args '--reconnect: a server reached through a subprocess or a passed' \
    --reconnect=5 "$tmp/mp" $mode
done
# The first connection is not tried again: the window is for outages.
bad_args 'nbd_connect_unix' --reconnect=5 "$tmp/mp" --unix "$sock"

# A bad FUSE option is found before mounting.
if nbdkit --version >/dev/null 2>&1; then
  bad_args 'unknown option' -o no_such_fuse_option "$tmp/mp" \
    [ nbdkit --exit-with-parent memory 1M ]
fi
