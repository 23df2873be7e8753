# 410-pwrite.py: pwrite of bytes, bytearray and memoryview; FUA.
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
data = bytes(range(256)) * 2
h.pwrite(data, 0)
h.pwrite(bytearray(b"\xff" * 512), 512)
h.pwrite(memoryview(b"\xee" * 1024)[512:], 1024, nbd.CMD_FLAG_FUA)
assert h.pread(512, 0) == data
assert h.pread(512, 512) == b"\xff" * 512
assert h.pread(512, 1024) == b"\xee" * 512
h.flush()
h.zero(512, 0)
assert h.pread(512, 0) == bytes(512)
h.trim(4096, 4096)
h.cache(4096, 0) if h.can_cache() else None
try:
    h.pwrite("a str is not bytes", 0)
    assert False
except TypeError:
    pass
