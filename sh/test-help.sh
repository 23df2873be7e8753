#!/usr/bin/env bash
# test-help.sh: -h and --help print the usage and exit 0; the hidden
# --short-options and --long-options list the options for completion.
source "${srcdir:-.}/sh-functions.sh"
set -e

for opt in -h --help; do
  $VG nbdsh $opt > "$tmp/out"
  grep -q '^usage: nbdsh ' "$tmp/out"
  for o in --base-allocation --command --opt-mode --uri --verbose \
           --version SCRIPT; do
    grep -q -- "$o" "$tmp/out"
  done
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
