# 020-loaded-library.py: the extension loaded this build's libnbd.so.0,
# not the system's.
import os
import nbd

built = os.path.realpath(os.environ["LIBNBD_BUILT_LIBRARY"])
h = nbd.NBD()
mapped = set()
with open("/proc/self/maps") as f:
    for line in f:
        fields = line.split()
        if len(fields) >= 6 and "libnbd.so" in fields[5]:
            mapped.add(os.path.realpath(fields[5]))
print("mapped:", mapped)
assert mapped == {built}, mapped
