#!/usr/bin/env bash
# test-help.sh: -h and --help print the usage and exit 0; the hidden
# --short-options and --long-options list the options for completion.
source "${srcdir:-.}/sh-functions.sh"
set -e

for opt in -h --help; do
  # COLUMNS fixes the width at which argparse wraps the usage.
  COLUMNS=80 $VG nbdsh $opt > "$tmp/out"
  grep -q '^usage: nbdsh ' "$tmp/out"
  for o in --base-allocation --command --opt-mode --uri --verbose \
           --version; do
    grep -q -- "$o" "$tmp/out"
  done
  # The usage of libnbd 1.22's nbdsh: options only, no file argument.
  sed '/^$/,$d' "$tmp/out" > "$tmp/usage"
  expect "$tmp/usage" \
"usage: nbdsh [-h] [--base-allocation] [-c COMMAND] [-n] [--opt-mode] [-u URI]
             [-v] [-V]"
  # Scripts look for where the rest is told: the manual page.
  grep -q 'nbdsh(1) manual page' "$tmp/out"
  # The old name --connect works but is not advertised.
  ! grep -q -- --connect "$tmp/out"
done

$VG nbdsh --short-options > "$tmp/out"
expect "$tmp/out" "-V
-c
-n
-u
-v"
$VG nbdsh --long-options > "$tmp/out"
expect "$tmp/out" "--base-allocation
--command
--opt-mode
--uri
--verbose
--version"

# A reader that closes the pipe early gets no traceback on stderr.
# (The reader closes at once, so the write fails with EPIPE.)
$VG nbdsh --long-options 2> "$tmp/err" | true
test ! -s "$tmp/err" || { cat "$tmp/err"; exit 1; }
