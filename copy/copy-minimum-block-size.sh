#!/usr/bin/env bash
# copy-minimum-block-size.sh: an end with a minimum block size gets only
# requests it accepts, although the source's holes and data lie on 4K
# boundaries: holes are zeroed on the whole blocks they cover and their
# unaligned edges are written as data.  Against nbdkit's
# blocksize-policy filter, which refuses unaligned requests, and
# qemu-nbd's compress driver (a 64K minimum), in each way nbdcopy
# copies.
source "${srcdir:-.}/copy-functions.sh"
set -e
requires nbdkit --filter=blocksize-policy null --dump-plugin
requires nbdkit sparse-random --dump-plugin
requires nbdkit pattern --dump-plugin
make_tmpdir
size=$((32 * 1024 * 1024))

# Runs of 4K blocks of data and holes, most of them not 64K aligned.
random=( sparse-random $size seed=$RANDOM percent=40 runlength=20480 )
source=( "[" nbdkit --exit-with-parent "${random[@]}" "]" )
nbdcopy -- "${source[@]}" "$tmp/ref"

# policy MIN: blocksize-policy's parameters for a minimum block size
# MIN (they follow the plugin's name).
policy ()
{
  echo blocksize-error-policy=error blocksize-minimum="$1" \
       blocksize-preferred="$1"
}

# Destinations holding junk first, so that every hole must be zeroed.
for min in 64K 16K; do
  start_nbdkit "$tmp/sock$min" --filter=blocksize-policy memory $size \
               $(policy $min)
  for opts in "" "--synchronous" "--allocated" "--no-extents" "-S 0" \
              "--request-size=4K" "--blkhash=sha256/32K" "pipe"; do
    echo "minimum $min: $opts"
    nbdcopy -- [ nbdkit --exit-with-parent pattern $size ] "$uri"
    if [ "$opts" = pipe ]; then
      $VG nbdcopy - "$uri" < "$tmp/ref"
    else
      $VG nbdcopy $opts -- "${source[@]}" "$uri" > /dev/null
    fi
    nbdcopy "$uri" "$tmp/out"
    cmp "$tmp/ref" "$tmp/out"
  done
done

# A source with a minimum block size is read in whole blocks.
$VG nbdcopy -- [ nbdkit --exit-with-parent --filter=blocksize-policy \
                 "${random[@]}" $(policy 64K) ] "$tmp/out2"
cmp "$tmp/ref" "$tmp/out2"

# qemu-nbd writing compressed qcow2: each cluster is written once,
# whole.
requires qemu-img --version
requires qemu-nbd --version
qemu-img create -q -f qcow2 "$tmp/c.qcow2" $size
opts=driver=compress,file.driver=qcow2,file.file.driver=file
opts+=,file.file.filename=$tmp/c.qcow2
requires qemu-img info --image-opts "$opts"
$VG nbdcopy -- "${source[@]}" [ qemu-nbd --image-opts "$opts" ]
qemu-img compare -q -f qcow2 "$tmp/c.qcow2" -F raw "$tmp/ref"
LC_ALL=C qemu-img check "$tmp/c.qcow2" > "$tmp/check"
cat "$tmp/check"
grep -q 'compressed clusters' "$tmp/check"
! grep -q ' 0.00% compressed clusters' "$tmp/check"
