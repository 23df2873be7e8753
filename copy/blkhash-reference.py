#!/usr/bin/env python3
# blkhash-reference.py: the block hash of a file, written from the
# algorithm's description and nothing else, to check nbdcopy's.
# Usage: blkhash-reference.py FILE DIGEST BLOCKSIZE
import hashlib
import struct
import sys

path, digest, block_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
outer = hashlib.new(digest)
size = 0
with open(path, "rb") as f:
    while True:
        block = f.read(block_size)
        if not block:
            break
        size += len(block)
        outer.update(hashlib.new(digest, block).digest())
outer.update(struct.pack("<Q", size))
print(outer.hexdigest())
