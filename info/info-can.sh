#!/bin/bash -
# info-can.sh: every --can/--is/--has flag exits 0 when true and 2 when
# false, the negated forms the other way round, and 1 on an error.
set -euo pipefail
source "${srcdir:-.}/info-functions.sh"

# nbdkit's eval plugin answers each flag as told: exit 0 is true,
# exit 3 false.
T="exit 0" F="exit 3"
read='dd if=/dev/zero count=$3 iflag=count_bytes status=none'
start_nbdkit yes eval get_size='echo 1M' pread="$read" \
  pwrite='cat >/dev/null' can_write="$T" can_flush="$T" flush=: \
  is_rotational="$T" can_trim="$T" trim=: can_zero="$T" zero=: \
  can_fua='echo native' can_multi_conn="$T" can_cache='echo native' \
  cache=: can_fast_zero="$T" can_extents="$T" extents='echo 0 1M 0'
yes=$uri
start_nbdkit no eval get_size='echo 1M' pread="$read" \
  can_write="$F" can_flush="$F" is_rotational="$F" can_trim="$F" \
  can_zero="$F" can_fua='echo none' can_multi_conn="$F" \
  can_cache='echo none' can_fast_zero="$F" can_extents="$F"
no=$uri
# Without structured replies there is no DF flag either.
start_nbdkit nosr --no-sr null 1M
nosr=$uri

# check FLAG URI-WHERE-TRUE URI-WHERE-FALSE
check ()
{
  expect_status 0 nbdinfo --can "$1" "$2"
  expect_status 2 nbdinfo --can "$1" "$3"
  expect_status 2 nbdinfo --cannot "$1" "$2"
  expect_status 0 nbdinfo --cannot "$1" "$3"
}

# Every spelling of the option and of its negation means the same.
for opt in --can --is --has --have; do
  expect_status 0 nbdinfo $opt trim "$yes"
  expect_status 2 nbdinfo $opt trim "$no"
done
for neg in --cannot --cant --can-not --isnt --isnot --is-not \
           --hasnt --hasnot --has-not --havent --havenot --have-not; do
  expect_status 2 nbdinfo $neg trim "$yes"
  expect_status 0 nbdinfo $neg trim "$no"
done

check write "$yes" "$no"
check read-only "$no" "$yes"
check readonly "$no" "$yes"
check rotational "$yes" "$no"
check cache "$yes" "$no"
check fast-zero "$yes" "$no"
check fastzero "$yes" "$no"
check flush "$yes" "$no"
check fua "$yes" "$no"
check multi-conn "$yes" "$no"
check trim "$yes" "$no"
check zero "$yes" "$no"
check df "$yes" "$nosr"
check structured-reply "$yes" "$nosr"
check "Structured Replies" "$yes" "$nosr"

# Always true once connected, and never true here: no TLS, and no
# server in Debian 12 has extended headers or block status payloads.
for flag in connect read; do
  expect_status 0 nbdinfo --can $flag "$no"
  expect_status 2 nbdinfo --cannot $flag "$no"
done
for flag in tls extended-headers block-status-payload; do
  expect_status 2 nbdinfo --is $flag "$yes"
  expect_status 0 nbdinfo --isnt $flag "$yes"
done

# Errors: no server, an unknown flag.  Nothing is printed on stdout.
out=$(nbdinfo --can connect "nbd+unix:///?socket=$tmp/none" 2>/dev/null) ||
  [ $? = 1 ]
[ -z "$out" ]
expect_status 1 nbdinfo --can connect "nbd+unix:///?socket=$tmp/none"
expect_status 1 nbdinfo --can bogus "$yes"
nbdinfo --isnt bogus "$yes" 2>"$tmp/err" || :
grep -q 'unknown --cannot/--isnt/--hasnt option: bogus' "$tmp/err"
echo "$0: OK"
