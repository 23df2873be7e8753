#!/usr/bin/env bash
# copy-checkpoint-corrupt.sh: the file a killed --checkpoint copy left
# is damaged in turn in each way below, and each damaged file must be
# refused (exit status 3, a message naming the file and the damage,
# the destination left alone); the intact file then resumes and the
# copy ends equal.  Issue 44: with the src, dst and sample lines
# deleted and a durable line garbled, the resume exited 0, 33 MB wrong.
source "${srcdir:-.}/copy-functions.sh"
set -e
use_nbdkit_1_48
requires nbdkit --filter=rate file --version
make_tmpdir
mib=$((1024 * 1024))
size=$((48 * mib))
put_random "$tmp/src" 0 $size
truncate -s $size "$tmp/dst"
ck="$tmp/ck"
sock="$tmp/dst.sock"
dsturi="nbd+unix:///?socket=$sock"

# server [slow]: (re)start the destination on the same socket, slowed
# to about 4M/s if asked.
server ()
{
  restart_file_server "$sock" "$tmp/dst" ${1:+32M}
}

# A copy killed once 8M are durable and some data is sampled.
server slow
$VG nbdcopy --checkpoint="$ck" --checkpoint-bytes=4M "$tmp/src" "$dsturi" \
  > "$tmp/killed.out" 2>&1 &
kill_copy_once_durable $! "$tmp/killed.out" "$ck" $((8 * mib)) $size
cp "$ck" "$tmp/ck.good"
server
cp "$tmp/dst" "$tmp/dst.before"

# damaged MESSAGE EDIT...: the good file edited by the command EDIT
# (a filter, e.g. sed SCRIPT) must be refused with MESSAGE, and
# nothing written.
damaged ()
{
  local message=$1 r=0
  shift
  "$@" < "$tmp/ck.good" > "$ck"
  if cmp -s "$ck" "$tmp/ck.good"; then
    echo "$0: the edit '$*' changed nothing"
    exit 1
  fi
  $VG nbdcopy --checkpoint="$ck" "$tmp/src" "$dsturi" 2> "$tmp/err" || r=$?
  cat "$tmp/err"
  if [ $r != 3 ]; then
    echo "$0: FAIL: the file edited with '$*' gave exit status $r, not 3"
    exit 1
  fi
  grep -F "nbdcopy: --checkpoint: $ck: " "$tmp/err" | grep -F -- "$message"
  cmp "$tmp/dst.before" "$tmp/dst"
}
first_durable='0,/^durable /s/^durable '

# Lines deleted.
damaged "the src line is missing" sed '/^src /d'
damaged "the dst line is missing" sed '/^dst /d'
damaged "sample lines are missing: 15 of 16" sed '0,/^sample /{/^sample /d}'
damaged "sample lines are missing: 0 of 16" sed '/^sample /d'
# Some data was sampled, or the edits of data lines below test nothing.
grep -q '^data ' "$tmp/ck.good"
damaged "the checksum does not match" sed '0,/^data /{/^data /d}'
damaged "the checksum does not match" sed '0,/^durable /{/^durable /d}'
damaged "the file is incomplete" sed '/^end /d'
damaged "the file is incomplete" head -c -1
# What issue 44 tried: src, dst and samples gone, all durable.
damaged "the src line is missing" \
  sed '/^src /d; /^dst /d; /^sample /d; s/^durable .*/durable 0 '$size'/'
# Lines garbled: not exactly as nbdcopy writes them.
damaged "is malformed: durable" sed "$first_durable/durable x/"
damaged "is malformed: durable" sed "$first_durable/durable  /"
damaged "is malformed: durable" sed "$first_durable/durable +/"
damaged "is malformed: durable" sed "$first_durable\([0-9]*\) /&0/"
damaged "is malformed: data" sed '0,/^data /s/^data /data -/'
damaged "is malformed: end" sed 's/^end .*/end 12345/'
damaged "is not one nbdcopy writes: hello world" sed '/^end /i hello world'
damaged "not a checkpoint file of this nbdcopy" sed '1s/ 2$/ 1/'
# Lines well formed, but not where they belong.
damaged "follows the end line" sed '$a durable 0 4096'
damaged "follows the end line" sh -c 'cat; printf x'
damaged "is out of place" sed '/^dst /p'
damaged "is out of place" sed '/^end /i sample 0 4096 0123456789abcdef'
damaged "the durable ranges are out of place" \
  sed "$first_durable[0-9]* /durable $size /"
# Lines well formed and in place, but changed: only the checksum tells.
damaged \
  "the checksum does not match the file's lines: it was changed or damaged" \
  awk '$1 == "durable" && !done { $2 += 4096; done = 1 } 1'
damaged "the checksum does not match" \
  sed '0,/^data /s/^\(data [0-9]* [0-9]*\) .*/\1 0123456789abcdef/'
damaged "the checksum does not match" sed 's/^end .*/end 0123456789abcdef/'

# The intact file: resumed, equal.
cp "$tmp/ck.good" "$ck"
$VG nbdcopy --checkpoint="$ck" "$tmp/src" "$dsturi"
cmp "$tmp/src" "$tmp/dst"
[ ! -e "$ck" ]
