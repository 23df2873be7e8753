#!/bin/bash -
# discard-prompt.sh: without -y the question is asked on stdout, with
# the target and the range in bytes, and one character is read from
# stdin: y or Y goes ahead, anything else (n, a newline, no input)
# cancels with status 1 and sends no request.
set -euo pipefail
source "${srcdir:-.}/discard-functions.sh"

serve m memory 4M
fill m 4M
question="PERMANENTLY ERASE everything on $uri bytes 1048576 - 3145727 (y/N)? "

# ask PROG ANSWER ARGS...: PROG answered with ANSWER (printf's format).
ask ()
{
  local prog=$1 answer=$2 status=0
  shift 2
  printf "$answer" | $prog -o 1M -l 2M "$@" "$uri" > "$tmp/out" 2> "$tmp/err" ||
    status=$?
  # The question ends without a newline.
  if [ "$(cat "$tmp/out"; echo .)" != "$question." ]; then
    echo "$0: FAIL: $prog asked, then the question expected:"
    cat "$tmp/out"; echo
    echo "$question"
    exit 1
  fi
  return $status
}

for a in n N '\n' '' ' y' 'x' 'no' '\0y'; do
  ask nbddiscard "$a" && { echo "$0: FAIL: answer '$a' went ahead"; exit 1; }
  says "$tmp/err" "nbddiscard: operation cancelled"
  ask nbdzero "$a" && { echo "$0: FAIL: answer '$a' went ahead"; exit 1; }
  says "$tmp/err" "nbdzero: operation cancelled"
done
# No stdin at all.
status=0
nbdzero "$uri" <&- > "$tmp/out" 2> "$tmp/err" || status=$?
test $status -eq 1
says "$tmp/err" "nbdzero: operation cancelled"
expect_commands m < /dev/null

ask nbddiscard y
test ! -s "$tmp/err"
ask nbdzero 'Y\n'
ask nbddiscard 'yes\n'
expect_commands m <<EOF2
Trim offset=0x100000 count=0x200000 fua=0
Flush
Zero offset=0x100000 count=0x200000 trim=1 fua=0 fast=0
Flush
Trim offset=0x100000 count=0x200000 fua=0
Flush
EOF2

# One byte is read: what follows the answer is left for the next reader.
mark m
{ nbdzero -o 1M -l 2M "$uri" > /dev/null; cat > "$tmp/rest"; } <<< "yrest"
says "$tmp/rest" "rest"

# The whole export by default; a command as the target.
printf y | nbdzero -- [ nbdkit memory 1M ] > "$tmp/out"
says "$tmp/out" "PERMANENTLY ERASE everything on [ nbdkit memory 1M ] bytes 0 - 1048575 (y/N)? "

# -y asks nothing.
mark m
nbdzero -y "$uri" < /dev/null > "$tmp/out"
test ! -s "$tmp/out"
expect_commands m <<EOF2
Zero offset=0x0 count=0x400000 trim=1 fua=0 fast=0
Flush
EOF2
echo "$0: OK"
